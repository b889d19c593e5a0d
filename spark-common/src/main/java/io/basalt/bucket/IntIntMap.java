package io.basalt.bucket;

/**
 * An open-addressing map from int keys to int values, without boxing: an assigner keeps one entry
 * per key hash it owns, so the per-entry cost decides its memory. Not thread-safe.
 */
final class IntIntMap {
  private static final int FREE = 0;
  private int[] keys = new int[16];
  private int[] values = new int[16];
  private boolean hasZeroKey;
  private int zeroValue;
  private int size;

  /** The value of {@code key}, or {@code missing} when absent. */
  int get(int key, int missing) {
    if (key == FREE) {
      return hasZeroKey ? zeroValue : missing;
    }
    int mask = keys.length - 1;
    for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
      if (keys[i] == key) {
        return values[i];
      }
      if (keys[i] == FREE) {
        return missing;
      }
    }
  }

  /** Puts {@code key -> value}, replacing an earlier value. */
  void put(int key, int value) {
    if (key == FREE) {
      if (!hasZeroKey) {
        size++;
      }
      hasZeroKey = true;
      zeroValue = value;
      return;
    }
    if ((size + 1) * 2 > keys.length) {
      grow();
    }
    if (insert(keys, values, key, value)) {
      size++;
    }
  }

  int size() {
    return size;
  }

  private static boolean insert(int[] keys, int[] values, int key, int value) {
    int mask = keys.length - 1;
    for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
      if (keys[i] == key) {
        values[i] = value;
        return false;
      }
      if (keys[i] == FREE) {
        keys[i] = key;
        values[i] = value;
        return true;
      }
    }
  }

  private void grow() {
    int[] oldKeys = keys;
    int[] oldValues = values;
    keys = new int[oldKeys.length * 2];
    values = new int[oldKeys.length * 2];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != FREE) {
        insert(keys, values, oldKeys[i], oldValues[i]);
      }
    }
  }

  // the keys are murmur hashes already, but spread them again so sequential keys do not cluster
  private static int mix(int key) {
    int h = key * 0x9e3779b9;
    return h ^ (h >>> 16);
  }
}
