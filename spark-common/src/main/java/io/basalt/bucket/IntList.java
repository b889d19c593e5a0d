package io.basalt.bucket;

import java.util.Arrays;
import java.util.PrimitiveIterator;

/** A growable list of ints without boxing: the new key hashes of one bucket. Not thread-safe. */
public final class IntList {
  private int[] values = new int[8];
  private int size;

  void add(int value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
  }

  /** The number of values. */
  public int size() {
    return size;
  }

  /** The values in insertion order. */
  public PrimitiveIterator.OfInt iterator() {
    return Arrays.stream(values, 0, size).iterator();
  }
}
