package io.basalt.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * The results of {@link PeerBenchmark}, step by step, and the markdown tables it prints: times as
 * ratios to the baseline (the first system, plain Parquet by default) with the files each plan
 * read, and the medians in milliseconds.
 */
final class PeerReport {
  /** One system's result of one step: its timed runs and, for reads, what its plan read. */
  record Result(Measurement times, @Nullable PlanFiles plan) {}

  private final List<PeerSystem> systems;
  private final Map<String, Map<String, Result>> steps = new LinkedHashMap<>();
  private final PrintStream out;

  PeerReport(List<PeerSystem> systems, PrintStream out) {
    this.systems = List.copyOf(systems);
    this.out = out;
  }

  /** Records {@code system}'s result of {@code step} and prints its raw runs. */
  void add(String step, PeerSystem system, Result result) {
    steps.computeIfAbsent(step, s -> new LinkedHashMap<>()).put(system.id(), result);
    out.printf(
        Locale.ROOT,
        "  %-30s %-16s %s ms%s%n",
        step,
        system.label(),
        result.times().samples(),
        result.plan() == null ? "" : " (" + result.plan().files() + ")");
  }

  void line(String template, Object... args) {
    out.printf(Locale.ROOT, template + "%n", args);
  }

  /**
   * Prints the table of ratios: per step, each system's median divided by the baseline's, with the
   * files its plan read (and for the join whether it shuffled); time travel in milliseconds.
   */
  void ratioTable() {
    PeerSystem baseline = systems.get(0);
    out.println();
    header("step", systems.subList(1, systems.size()));
    for (Map.Entry<String, Map<String, Result>> step : steps.entrySet()) {
      Result base = step.getValue().get(baseline.id());
      List<String> cells = new ArrayList<>();
      for (PeerSystem system : systems.subList(1, systems.size())) {
        cells.add(ratioCell(step.getKey(), step.getValue().get(system.id()), base));
      }
      row(step.getKey() + " (" + baseline.label() + ": " + cell(base) + ")", cells);
    }
  }

  /** Prints the medians of every system in milliseconds, with the files read. */
  void millisTable() {
    out.println();
    header("step (median ms)", systems);
    for (Map.Entry<String, Map<String, Result>> step : steps.entrySet()) {
      List<String> cells = new ArrayList<>();
      for (PeerSystem system : systems) {
        cells.add(cell(step.getValue().get(system.id())));
      }
      row(step.getKey(), cells);
    }
  }

  private static String ratioCell(String step, Result result, Result base) {
    double ratio = result.times().median() / base.times().median();
    String text = String.format(Locale.ROOT, "%.2fx", ratio);
    if (step.startsWith("time travel")) {
      text = String.format(Locale.ROOT, "%,.0f ms (%.2fx)", result.times().median(), ratio);
    }
    return text + details(step, result);
  }

  private static String cell(Result result) {
    return String.format(Locale.ROOT, "%,.0f ms", result.times().median()) + details("", result);
  }

  private static String details(String step, Result result) {
    PlanFiles plan = result.plan();
    if (plan == null) {
      return "";
    }
    String shuffle = plan.keyShuffles() == 0 ? ", no shuffle" : ", shuffles";
    return " (" + plan.files() + (step.startsWith("join") ? shuffle : "") + ")";
  }

  private void header(String first, List<PeerSystem> columns) {
    List<String> labels = new ArrayList<>();
    labels.add(first);
    columns.forEach(s -> labels.add(s.label()));
    out.println("| " + String.join(" | ", labels) + " |");
    out.println("|" + "---|".repeat(labels.size()));
  }

  private void row(String first, List<String> cells) {
    out.println("| " + first + " | " + String.join(" | ", cells) + " |");
  }
}
