package io.basalt.format;

/**
 * Where a converter puts the value it decoded: a field of a row, an array element or a map entry.
 * Typed setters let row targets store primitives without boxing.
 */
abstract class Slot {
  abstract void set(Object value);

  void setBoolean(boolean value) {
    set(value);
  }

  void setByte(byte value) {
    set(value);
  }

  void setShort(short value) {
    set(value);
  }

  void setInt(int value) {
    set(value);
  }

  void setLong(long value) {
    set(value);
  }

  void setFloat(float value) {
    set(value);
  }

  void setDouble(double value) {
    set(value);
  }

  /** A slot holding one value until its owner collects it. */
  static final class Holder extends Slot {
    Object value;

    @Override
    void set(Object newValue) {
      this.value = newValue;
    }
  }
}
