package io.basalt.mergetree;

/**
 * A stable merge sort of records stored as pairs of longs in an array (the write buffer's (key
 * prefix, pointer) pairs): insertion-sorted runs, then bottom-up merges between the array and a
 * scratch array of the same size. Allocates nothing, boxes nothing.
 */
final class PointerSort {
  private static final int RUN = 32;

  private PointerSort() {}

  /** Compares record {@code a} of {@code left} with record {@code b} of {@code right}. */
  @FunctionalInterface
  interface RecordOrder {
    int compare(long[] left, int a, long[] right, int b);
  }

  /**
   * Sorts the first {@code n} records of {@code records}; {@code scratch} holds at least as many.
   * The result is in {@code records}.
   */
  static void sort(long[] records, long[] scratch, int n, RecordOrder order) {
    for (int lo = 0; lo < n; lo += RUN) {
      insertionSort(records, lo, Math.min(lo + RUN, n), order);
    }
    long[] from = records;
    long[] to = scratch;
    for (int width = RUN; width < n; width *= 2) {
      for (int lo = 0; lo < n; lo += 2 * width) {
        merge(from, to, lo, Math.min(lo + width, n), Math.min(lo + 2 * width, n), order);
      }
      long[] swap = from;
      from = to;
      to = swap;
    }
    if (from != records) {
      System.arraycopy(from, 0, records, 0, 2 * n);
    }
  }

  private static void insertionSort(long[] a, int lo, int hi, RecordOrder order) {
    for (int i = lo + 1; i < hi; i++) {
      for (int j = i; j > lo && order.compare(a, j - 1, a, j) > 0; j--) {
        swap(a, j - 1, j);
      }
    }
  }

  private static void merge(long[] from, long[] to, int lo, int mid, int hi, RecordOrder order) {
    if (mid >= hi || order.compare(from, mid - 1, from, mid) <= 0) {
      System.arraycopy(from, 2 * lo, to, 2 * lo, 2 * (hi - lo)); // already in order
      return;
    }
    int i = lo;
    int j = mid;
    int k = 2 * lo;
    while (i < mid && j < hi) {
      // ties take the left run first, which keeps the sort stable
      int take = order.compare(from, j, from, i) < 0 ? j++ : i++;
      to[k++] = from[2 * take];
      to[k++] = from[2 * take + 1];
    }
    if (i < mid) {
      System.arraycopy(from, 2 * i, to, k, 2 * (mid - i));
    } else if (j < hi) {
      System.arraycopy(from, 2 * j, to, k, 2 * (hi - j));
    }
  }

  private static void swap(long[] a, int i, int j) {
    long prefix = a[2 * i];
    long pointer = a[2 * i + 1];
    a[2 * i] = a[2 * j];
    a[2 * i + 1] = a[2 * j + 1];
    a[2 * j] = prefix;
    a[2 * j + 1] = pointer;
  }
}
