package io.basalt.data;

/** The change a key-value row carries; the byte is the {@code _VALUE_KIND} stored on disk. */
public enum RowKind {
  INSERT((byte) 0, "+I"),
  UPDATE_BEFORE((byte) 1, "-U"),
  UPDATE_AFTER((byte) 2, "+U"),
  DELETE((byte) 3, "-D");

  private final byte value;
  private final String shortString;

  RowKind(byte value, String shortString) {
    this.value = value;
    this.shortString = shortString;
  }

  public byte value() {
    return value;
  }

  public String shortString() {
    return shortString;
  }

  /** Whether rows of this kind add a version of the key (+I, +U) rather than retract it. */
  public static boolean isAdd(byte value) {
    return value == 0 || value == 2;
  }
}
