package io.basalt.manifest;

/**
 * Whether a manifest entry adds a file to, or removes it from, the live set. Byte values are on
 * disk.
 */
public enum FileKind {
  ADD((byte) 0),
  DELETE((byte) 1);

  private final byte value;

  FileKind(byte value) {
    this.value = value;
  }

  /** The on-disk byte. */
  public byte value() {
    return value;
  }

  /** Parses the on-disk byte. */
  public static FileKind fromValue(int value) {
    return switch (value) {
      case 0 -> ADD;
      case 1 -> DELETE;
      default -> throw new IllegalArgumentException("Unknown manifest entry kind " + value);
    };
  }
}
