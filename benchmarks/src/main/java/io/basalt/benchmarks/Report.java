package io.basalt.benchmarks;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import javax.annotation.Nullable;

/** Prints the benchmark's medians and the Basalt/Parquet ratios as a small text table. */
final class Report {
  private final PrintStream out;

  /**
   * One row of {@link #comparisons}: a phase timed on Parquet and on Basalt, and the most Basalt's
   * median may take relative to Parquet's for the phase to meet its target.
   *
   * @param phase the row's label
   * @param parquet Parquet's timed runs
   * @param basalt Basalt's timed runs; null in Parquet-only runs
   * @param maxTimeRatio the target: Basalt's median at most this times Parquet's
   */
  record Comparison(
      String phase, Measurement parquet, @Nullable Measurement basalt, double maxTimeRatio) {

    @Nullable
    Double timeRatio() {
      return basalt == null ? null : basalt.median() / parquet.median();
    }

    boolean met() {
      Double ratio = timeRatio();
      return ratio != null && ratio <= maxTimeRatio;
    }
  }

  Report(PrintStream out) {
    this.out = out;
  }

  /** Prints the header line describing the run. */
  void header(String benchmark, BenchmarkOptions options) {
    out.printf(
        Locale.ROOT,
        "%s: %,d rows, %s, %d warm-up(s) + %d timed rep(s) per phase%n%n",
        benchmark,
        options.rows(),
        Harness.MASTER,
        options.warmups(),
        options.reps());
  }

  /** Prints one line of free text (a phase heading, a note). */
  void line(String template, Object... args) {
    out.printf(Locale.ROOT, template + "%n", args);
  }

  /** Prints one measurement's raw timed runs. */
  void samples(Measurement m) {
    out.printf(Locale.ROOT, "  %-22s %s ms%n", m.name(), m.samples());
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

  /**
   * Prints the table of medians with two ratios per phase, both from the medians: time
   * (Basalt/Parquet, lower is better) and throughput (its inverse, higher is better), and whether
   * the phase met its target.
   */
  void comparisons(List<Comparison> rows) {
    out.println();
    String format = "%-22s %11s %11s %15s %15s %10s  %s%n";
    out.printf(
        Locale.ROOT,
        format,
        "phase",
        "parquet ms",
        "basalt ms",
        "time b/p",
        "throughput b/p",
        "target",
        "");
    out.printf(
        Locale.ROOT,
        format,
        "",
        "(median)",
        "(median)",
        "(lower=better)",
        "(higher)",
        "(time)",
        "");
    for (Comparison row : rows) {
      Double ratio = row.timeRatio();
      out.printf(
          Locale.ROOT,
          format,
          row.phase(),
          String.format(Locale.ROOT, "%.1f", row.parquet().median()),
          row.basalt() == null ? "-" : String.format(Locale.ROOT, "%.1f", row.basalt().median()),
          ratio == null ? "-" : String.format(Locale.ROOT, "%.2fx", ratio),
          ratio == null ? "-" : String.format(Locale.ROOT, "%.2fx", 1 / ratio),
          String.format(Locale.ROOT, "<= %.2fx", row.maxTimeRatio()),
          ratio == null ? "" : row.met() ? "met" : "MISSED");
    }
  }
}
