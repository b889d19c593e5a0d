package io.basalt.benchmarks;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.exchange.ReusedExchangeExec;
import org.apache.spark.sql.execution.exchange.ShuffleExchangeExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What an executed plan read, from its scans' own metrics after the query ran: Spark's file scans
 * report {@code numFiles} (plain Parquet and Delta), Basalt's scan {@code filesPlanned}, Iceberg's
 * {@code resultDataFiles} and {@code resultDeleteFiles}. Also counts the plan's shuffles by key.
 *
 * @param dataFiles data files the scans planned, summed over every scan of the plan
 * @param deleteFiles delete files the scans planned (Iceberg's position deletes; 0 elsewhere)
 * @param keyShuffles shuffle exchanges of the final plan that repartition rows over several
 *     partitions (a join's shuffles); the exchange into one partition that finishes a global
 *     aggregate does not count
 */
record PlanFiles(long dataFiles, long deleteFiles, int keyShuffles) {

  /** Data file metric names, by scan: Spark file scans, Basalt, Iceberg. */
  private static final List<String> DATA_FILE_METRICS =
      List.of("numFiles", "filesPlanned", "resultDataFiles");

  private static final String DELETE_FILE_METRIC = "resultDeleteFiles";

  /** Reads the counts of {@code plan}, which must have run (metrics are filled while it runs). */
  static PlanFiles of(SparkPlan plan) {
    List<SparkPlan> nodes = new ArrayList<>();
    collect(plan, nodes);
    long data = 0;
    long deletes = 0;
    int shuffles = 0;
    for (SparkPlan node : nodes) {
      if (node instanceof FileSourceScanExec || node instanceof BatchScanExec) {
        for (String name : DATA_FILE_METRICS) {
          data += metric(node, name);
        }
        deletes += metric(node, DELETE_FILE_METRIC);
      } else if (node instanceof ShuffleExchangeExec exchange
          && exchange.outputPartitioning().numPartitions() > 1) {
        shuffles++;
      }
    }
    return new PlanFiles(data, deletes, shuffles);
  }

  private static long metric(SparkPlan node, String name) {
    Option<SQLMetric> metric = node.metrics().get(name);
    return metric.isDefined() ? metric.get().value() : 0;
  }

  /** Every node, looking through adaptive plans, query stages and reused exchanges. */
  private static void collect(SparkPlan plan, List<SparkPlan> out) {
    if (plan instanceof AdaptiveSparkPlanExec adaptive) {
      collect(adaptive.executedPlan(), out);
      return;
    }
    if (plan instanceof QueryStageExec stage) {
      collect(stage.plan(), out);
      return;
    }
    if (plan instanceof ReusedExchangeExec) {
      // the reused exchange ran once; count its scans once, where they first appear
      return;
    }
    out.add(plan);
    for (SparkPlan child : CollectionConverters.asJava(plan.children())) {
      collect(child, out);
    }
  }

  /** For the report: {@code 64 files}, with Iceberg's delete files when there are any. */
  String files() {
    return deleteFiles == 0
        ? dataFiles + " files"
        : dataFiles + " files + " + deleteFiles + " deletes";
  }
}
