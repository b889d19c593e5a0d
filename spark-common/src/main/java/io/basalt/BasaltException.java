package io.basalt;

/**
 * The base of every user-facing Basalt error: the message says what failed, the value and the fix.
 */
public class BasaltException extends RuntimeException {
  public BasaltException(String message) {
    super(message);
  }

  public BasaltException(String message, Throwable cause) {
    super(message, cause);
  }
}
