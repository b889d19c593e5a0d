package io.basalt.options;

import io.basalt.BasaltErrorClass;
import io.basalt.BasaltException;
import java.util.Map;
import javax.annotation.Nullable;

/** Builds the errors of invalid option values, with their stable class and parameters. */
final class OptionErrors {
  private OptionErrors() {}

  /**
   * A {@link BasaltErrorClass#BASALT_INVALID_OPTION} error.
   *
   * @param option the option key
   * @param value the value as the user gave it (or as it resolved)
   * @param owner what the option belongs to, e.g. {@code table db.t}
   * @param message the full message, naming all of the above and the fix
   */
  static BasaltException invalidOption(
      String option, Object value, String owner, String message, @Nullable Throwable cause) {
    return new BasaltException(
        BasaltErrorClass.BASALT_INVALID_OPTION,
        Map.of("option", option, "value", String.valueOf(value), "owner", owner),
        message,
        cause);
  }

  /**
   * An invalid value of an option or, when {@code label} names a procedure argument, of that
   * argument ({@link BasaltErrorClass#BASALT_INVALID_INPUT}, parameter {@code input}).
   *
   * @param label where the value came from, {@code option 'key'} or {@code argument 'name'}
   */
  static BasaltException invalidValue(
      String label, Object value, String owner, String message, @Nullable Throwable cause) {
    String prefix = "option '";
    if (label.startsWith(prefix) && label.endsWith("'")) {
      String key = label.substring(prefix.length(), label.length() - 1);
      return invalidOption(key, value, owner, message, cause);
    }
    return new BasaltException(
        BasaltErrorClass.BASALT_INVALID_INPUT,
        Map.of("input", label, "value", String.valueOf(value), "owner", owner),
        message,
        cause);
  }
}
