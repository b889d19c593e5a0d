package io.basalt.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The timed runs of one benchmark phase.
 *
 * @param name the phase, for the report
 * @param millis the wall-clock time of each timed run, in run order
 */
record Measurement(String name, List<Double> millis) {

  Measurement {
    millis = List.copyOf(millis);
    if (millis.isEmpty()) {
      throw new IllegalArgumentException("Measurement " + name + " has no timed runs");
    }
  }

  /**
   * Runs {@code action} {@code warmups} times untimed, then {@code reps} times timed. {@code setup}
   * runs untimed before every run, warm-ups included, so each run starts from the same state (an
   * empty table, no output directory).
   */
  static Measurement run(String name, int warmups, int reps, Runnable setup, Runnable action) {
    for (int i = 0; i < warmups; i++) {
      setup.run();
      action.run();
    }
    List<Double> millis = new ArrayList<>();
    for (int i = 0; i < reps; i++) {
      millis.add(timed(setup, action));
    }
    return new Measurement(name, millis);
  }

  /**
   * Times two phases that are compared with each other, alternating their runs (A, B, A, B, ...) so
   * that drift during the run (JIT compilation, the heap filling up, another process) affects both
   * alike instead of whichever ran second. Warm-ups alternate too; each side's {@code setup} runs
   * untimed before each of its runs, as in {@link #run}.
   *
   * @return A's and B's measurements, in that order
   */
  static List<Measurement> interleaved(
      int warmups,
      int reps,
      String nameA,
      Runnable setupA,
      Runnable actionA,
      String nameB,
      Runnable setupB,
      Runnable actionB) {
    for (int i = 0; i < warmups; i++) {
      setupA.run();
      actionA.run();
      setupB.run();
      actionB.run();
    }
    List<Double> millisA = new ArrayList<>();
    List<Double> millisB = new ArrayList<>();
    for (int i = 0; i < reps; i++) {
      millisA.add(timed(setupA, actionA));
      millisB.add(timed(setupB, actionB));
    }
    return List.of(new Measurement(nameA, millisA), new Measurement(nameB, millisB));
  }

  /** Runs {@code setup}, collects garbage, and times {@code action} in milliseconds. */
  static double timed(Runnable setup, Runnable action) {
    setup.run();
    // a collection now rather than in the middle of the timed run; local mode shares one heap
    System.gc();
    long start = System.nanoTime();
    action.run();
    return (System.nanoTime() - start) / 1e6;
  }

  /** The median of the timed runs; the mean of the middle two for an even count. */
  double median() {
    List<Double> sorted = millis.stream().sorted().toList();
    int mid = sorted.size() / 2;
    return sorted.size() % 2 == 1 ? sorted.get(mid) : (sorted.get(mid - 1) + sorted.get(mid)) / 2;
  }

  /** The timed runs for the report, e.g. {@code 812.3, 798.0, 805.1}. */
  String samples() {
    return millis.stream()
        .map(ms -> String.format(Locale.ROOT, "%.1f", ms))
        .collect(Collectors.joining(", "));
  }
}
