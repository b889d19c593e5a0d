package io.basalt.benchmarks;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * Command-line options of {@link LoadAndScanBenchmark} and {@link UpsertBenchmark}.
 *
 * @param rows how many rows to generate and load
 * @param warmups untimed runs of each phase before the timed ones
 * @param reps timed runs of each phase; the report shows their median
 * @param rounds upsert rounds before the last scan of {@link UpsertBenchmark}
 * @param parquetOnly whether to skip the Basalt half (to check the harness without a catalog)
 * @param producers the {@code changelog-producer} values {@link ChangelogBenchmark} compares, the
 *     first being the baseline
 * @param help whether {@code --help} was given
 */
record BenchmarkOptions(
    long rows,
    int warmups,
    int reps,
    int rounds,
    boolean parquetOnly,
    List<String> producers,
    boolean help) {

  static final String USAGE =
      """
      Usage: benchmarks/run.sh [load-and-scan | upsert | changelog] [--rows N] [--reps K]
                               [--warmups W] [--rounds R] [--parquet-only] [--producers P,Q]

        load-and-scan     LoadAndScanBenchmark: load and scan (the default)
        upsert            UpsertBenchmark: scan of a compacted table, upsert rounds, scan after them
        changelog         ChangelogBenchmark: the write cost of each changelog producer vs none
        --rows N          rows to generate and load (default 2000000)
        --reps K          timed repetitions of each phase; the median is reported (default 3)
        --warmups W       untimed runs of each phase before the timed ones (default 1)
        --rounds R        upsert only: upsert rounds before the last scan (default 5)
        --parquet-only    time plain Parquet only, without Basalt's catalog
        --producers P,Q   changelog only: the producers to compare, the first is the baseline
                          (default none,input; add lookup, full-compaction where supported)
        --help            print this help
      """;

  BenchmarkOptions {
    producers = List.copyOf(producers);
    if (producers.isEmpty()) {
      throw new IllegalArgumentException("Invalid options: --producers names no producer");
    }
    if (rows <= 0 || reps <= 0 || warmups < 0 || rounds <= 0) {
      throw new IllegalArgumentException(
          "Invalid options: --rows, --reps and --rounds must be positive and --warmups not"
              + " negative, got rows="
              + rows
              + ", reps="
              + reps
              + ", rounds="
              + rounds
              + ", warmups="
              + warmups);
    }
  }

  /**
   * Parses the benchmark's arguments.
   *
   * @throws IllegalArgumentException naming the offending argument if the command line is invalid
   */
  static BenchmarkOptions parse(List<String> args) {
    Deque<String> queue = new ArrayDeque<>(args);
    long rows = 2_000_000L;
    int warmups = 1;
    int reps = 3;
    int rounds = 5;
    boolean parquetOnly = false;
    List<String> producers = List.of("none", "input");
    boolean help = false;
    while (!queue.isEmpty()) {
      String arg = queue.poll();
      switch (arg) {
        case "--rows" -> rows = number(queue, arg);
        case "--reps" -> reps = Math.toIntExact(number(queue, arg));
        case "--warmups" -> warmups = Math.toIntExact(number(queue, arg));
        case "--rounds" -> rounds = Math.toIntExact(number(queue, arg));
        case "--parquet-only" -> parquetOnly = true;
        case "--producers" -> producers = producerList(value(queue, arg));
        case "-h", "--help" -> help = true;
        default -> throw new IllegalArgumentException("Unknown argument '" + arg + "'");
      }
    }
    return new BenchmarkOptions(rows, warmups, reps, rounds, parquetOnly, producers, help);
  }

  private static List<String> producerList(String value) {
    List<String> producers = new ArrayList<>();
    for (String producer : value.split(",")) {
      if (!producer.isBlank()) {
        producers.add(producer.trim().toLowerCase(Locale.ROOT));
      }
    }
    return producers;
  }

  private static long number(Deque<String> queue, String option) {
    String value = value(queue, option);
    try {
      return Long.parseLong(value.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Invalid value '" + value + "' for " + option + ": expected a whole number", e);
    }
  }

  private static String value(Deque<String> queue, String option) {
    String value = queue.poll();
    if (value == null) {
      throw new IllegalArgumentException("Missing value after " + option);
    }
    return value;
  }
}
