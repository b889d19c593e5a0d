package io.basalt.benchmarks;

import java.io.PrintStream;
import java.util.Locale;
import javax.annotation.Nullable;

/** Prints the benchmark's medians and the Basalt/Parquet ratios as a small text table. */
final class Report {
  private final PrintStream out;

  Report(PrintStream out) {
    this.out = out;
  }

  /** Prints the header line describing the run. */
  void header(BenchmarkOptions options, String master) {
    out.printf(
        Locale.ROOT,
        "LoadAndScanBenchmark: %,d rows, %s, %d warm-up(s) + %d timed rep(s) per phase%n%n",
        options.rows(),
        master,
        options.warmups(),
        options.reps());
  }

  /** Prints one measurement's raw timed runs. */
  void samples(Measurement m) {
    out.printf(Locale.ROOT, "  %-14s %s ms%n", m.name(), m.samples());
  }

  /** Prints the table of medians; the Basalt measurements are null in Parquet-only runs. */
  void medians(
      Measurement parquetLoad,
      @Nullable Measurement basaltLoad,
      Measurement parquetScan,
      @Nullable Measurement basaltScan) {
    out.println();
    out.printf(
        Locale.ROOT, "%-6s %14s %14s %16s%n", "phase", "parquet ms", "basalt ms", "basalt/parquet");
    row("load", parquetLoad, basaltLoad);
    row("scan", parquetScan, basaltScan);
  }

  private void row(String phase, Measurement parquet, @Nullable Measurement basalt) {
    String basaltMs = basalt == null ? "-" : String.format(Locale.ROOT, "%.1f", basalt.median());
    String ratio =
        basalt == null
            ? "-"
            : String.format(Locale.ROOT, "%.2fx", basalt.median() / parquet.median());
    out.printf(Locale.ROOT, "%-6s %14.1f %14s %16s%n", phase, parquet.median(), basaltMs, ratio);
  }
}
