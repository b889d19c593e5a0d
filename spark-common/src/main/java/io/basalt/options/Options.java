package io.basalt.options;

import java.util.Map;
import java.util.Optional;

/**
 * An immutable set of option values, as strings, for one table (after precedence has been applied),
 * read through typed {@link ConfigOption}s. A value that does not parse fails with a message naming
 * the option, the value, the table and the expected form.
 */
public final class Options {
  private final Map<String, String> values;
  private final String owner;

  /**
   * @param values the option values
   * @param owner what the options belong to, for messages, e.g. {@code table db.t}
   */
  public Options(Map<String, String> values, String owner) {
    this.values = Map.copyOf(values);
    this.owner = owner;
  }

  public Map<String, String> toMap() {
    return values;
  }

  public String owner() {
    return owner;
  }

  /** The value of {@code option}, or its default (null when it has none). */
  public <T> T get(ConfigOption<T> option) {
    String raw = values.get(option.key());
    if (raw == null) {
      return option.defaultValue();
    }
    try {
      return option.parse(raw);
    } catch (RuntimeException e) {
      throw OptionErrors.invalidOption(
          option.key(),
          raw,
          owner,
          String.format(
              "Invalid value '%s' for option '%s' on %s: %s. Fix: set '%s' to a valid value%s.",
              raw,
              option.key(),
              owner,
              e.getMessage(),
              option.key(),
              option.defaultValue() == null ? "" : " (default " + option.defaultValue() + ")"),
          e);
    }
  }

  /** The value of {@code option} when set explicitly. */
  public <T> Optional<T> getOptional(ConfigOption<T> option) {
    return values.containsKey(option.key()) ? Optional.of(get(option)) : Optional.empty();
  }

  /** Whether {@code option} is set explicitly. */
  public boolean contains(ConfigOption<?> option) {
    return values.containsKey(option.key());
  }

  /** The raw string of any key, typed option or not. */
  public Optional<String> raw(String key) {
    return Optional.ofNullable(values.get(key));
  }
}
