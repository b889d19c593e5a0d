package io.basalt;

import java.util.Map;
import java.util.Objects;
import org.apache.spark.SparkThrowable;

/**
 * The base of every user-facing Basalt error: the message says what failed, the value and the fix.
 *
 * <p>It is a {@link SparkThrowable}, so Spark (and Spark Connect clients) report its {@link
 * BasaltErrorClass} as the error condition, with the parameters of that class. Errors built without
 * a class get {@link BasaltErrorClass#BASALT_ERROR} and no parameters.
 */
public class BasaltException extends RuntimeException implements SparkThrowable {
  private final BasaltErrorClass errorClass;
  private final Map<String, String> parameters;

  public BasaltException(String message) {
    this(BasaltErrorClass.BASALT_ERROR, Map.of(), message);
  }

  public BasaltException(String message, Throwable cause) {
    this(BasaltErrorClass.BASALT_ERROR, Map.of(), message, cause);
  }

  // Without a cause argument the cause stays unset, so callers may still initCause() it.
  public BasaltException(
      BasaltErrorClass errorClass, Map<String, String> parameters, String message) {
    super(message);
    this.errorClass = Objects.requireNonNull(errorClass, "errorClass");
    this.parameters = Map.copyOf(parameters);
  }

  /**
   * @param errorClass the stable class users match on
   * @param parameters the values that class documents, by name (no null values)
   * @param message the full message: what failed, the value and the fix
   * @param cause the error this one wraps, or null
   */
  public BasaltException(
      BasaltErrorClass errorClass,
      Map<String, String> parameters,
      String message,
      Throwable cause) {
    super(message, cause);
    this.errorClass = Objects.requireNonNull(errorClass, "errorClass");
    this.parameters = Map.copyOf(parameters);
  }

  /** The stable class of this error. */
  public BasaltErrorClass errorClass() {
    return errorClass;
  }

  @Override
  public String getCondition() {
    return errorClass.name();
  }

  @Override
  public String getSqlState() {
    return errorClass.sqlState();
  }

  @Override
  public boolean isInternalError() {
    return false;
  }

  // Spark's defaults look the class up in its own error catalog, which does not know ours.
  @Override
  public String getDefaultMessageTemplate() {
    return getMessage();
  }

  @Override
  public org.apache.spark.BreakingChangeInfo getBreakingChangeInfo() {
    return null;
  }

  /** The parameters of this error's class; a fresh mutable copy, as Spark's callers expect. */
  @Override
  public Map<String, String> getMessageParameters() {
    return new java.util.HashMap<>(parameters);
  }
}
