package io.basalt.options;

import io.basalt.utils.Check;
import java.util.function.Function;
import javax.annotation.Nullable;

/**
 * A typed table option: its key, how a string value parses, its default and its documentation.
 * Options are declared as constants in the per-concern classes listed by {@link OptionRegistry}.
 *
 * @param <T> the parsed type
 */
public final class ConfigOption<T> {
  private final String key;
  private final String typeName;
  private final Function<String, T> parser;
  @Nullable private final T defaultValue;
  private final String description;

  private ConfigOption(
      String key,
      String typeName,
      Function<String, T> parser,
      @Nullable T defaultValue,
      String description) {
    this.key = key;
    this.typeName = typeName;
    this.parser = parser;
    this.defaultValue = defaultValue;
    this.description = description;
  }

  /** Starts the declaration of an option called {@code key}. */
  public static Builder key(String key) {
    return new Builder(key);
  }

  public String key() {
    return key;
  }

  /** The type as the docs show it: Integer, Boolean, MemorySize, Duration, String, Enum. */
  public String typeName() {
    return typeName;
  }

  @Nullable
  public T defaultValue() {
    return defaultValue;
  }

  public String description() {
    return description;
  }

  /** Parses {@code value}; throws {@link IllegalArgumentException} with the reason when invalid. */
  public T parse(String value) {
    return parser.apply(value.trim());
  }

  @Override
  public String toString() {
    return key;
  }

  /** The first step of a declaration: choose the type. */
  public static final class Builder {
    private final String key;

    private Builder(String key) {
      this.key = key;
    }

    public TypedBuilder<Integer> intType() {
      return new TypedBuilder<>(key, "Integer", OptionParsers::parseInt);
    }

    public TypedBuilder<Long> longType() {
      return new TypedBuilder<>(key, "Long", OptionParsers::parseLong);
    }

    public TypedBuilder<Boolean> booleanType() {
      return new TypedBuilder<>(key, "Boolean", OptionParsers::parseBoolean);
    }

    public TypedBuilder<String> stringType() {
      return new TypedBuilder<>(key, "String", s -> s);
    }

    /** A size such as {@code 256 mb} or {@code 64kb}, parsed to bytes. */
    public TypedBuilder<Long> memoryType() {
      return new TypedBuilder<>(key, "MemorySize", OptionParsers::parseMemory);
    }

    /** A duration such as {@code 1 h} or {@code 30 s}, parsed to milliseconds. */
    public TypedBuilder<Long> durationType() {
      return new TypedBuilder<>(key, "Duration", OptionParsers::parseDurationMillis);
    }

    /** One of {@code values}, compared case-insensitively, parsed to its lower-case name. */
    public TypedBuilder<String> enumType(String... values) {
      return new TypedBuilder<>(
          key, "Enum (" + String.join(", ", values) + ")", s -> OptionParsers.parseEnum(s, values));
    }
  }

  /** The second step of a declaration: range, default and description. */
  public static final class TypedBuilder<T> {
    private final String key;
    private final String typeName;
    private Function<String, T> parser;
    @Nullable private T defaultValue;

    private TypedBuilder(String key, String typeName, Function<String, T> parser) {
      this.key = key;
      this.typeName = typeName;
      this.parser = parser;
    }

    /**
     * Refuses values below {@code min} when they are parsed, so a CREATE or ALTER TABLE cannot set
     * a value that would break later writes. For numbers, sizes (bytes) and durations (ms).
     */
    public TypedBuilder<T> atLeast(long min) {
      Function<String, T> unchecked = parser;
      String unit =
          switch (typeName) {
            case "MemorySize" -> " bytes";
            case "Duration" -> " ms";
            default -> "";
          };
      this.parser =
          text -> {
            T value = unchecked.apply(text);
            if (((Number) value).longValue() < min) {
              throw new IllegalArgumentException("expected at least " + min + unit);
            }
            return value;
          };
      return this;
    }

    public TypedBuilder<T> defaultValue(T value) {
      this.defaultValue = Check.notNull(value, "default value");
      return this;
    }

    /** Ends the declaration; an option without default has no value unless set. */
    public ConfigOption<T> description(String description) {
      return new ConfigOption<>(key, typeName, parser, defaultValue, description);
    }
  }
}
