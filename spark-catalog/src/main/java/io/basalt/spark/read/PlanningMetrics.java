package io.basalt.spark.read;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/**
 * Scan metrics reported by the driver after planning: what the manifests and statistics let the
 * scan skip. Spark creates metrics by class name, so each is a class of its own.
 */
public final class PlanningMetrics {
  private PlanningMetrics() {}

  /** Data files the scan reads. */
  public static final class FilesPlanned extends CustomSumMetric {
    static final String NAME = "filesPlanned";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String description() {
      return "data files planned";
    }
  }

  /** Data files left out because their statistics cannot match the filters. */
  public static final class FilesSkipped extends CustomSumMetric {
    static final String NAME = "filesSkipped";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String description() {
      return "data files skipped by statistics";
    }
  }

  /** Buckets left out by bucket predicates or whole-bucket statistics. */
  public static final class BucketsPruned extends CustomSumMetric {
    static final String NAME = "bucketsPruned";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String description() {
      return "buckets pruned";
    }
  }

  /** Manifests not read thanks to partition statistics or bucket ranges. */
  public static final class ManifestsSkipped extends CustomSumMetric {
    static final String NAME = "manifestsSkipped";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String description() {
      return "manifests skipped";
    }
  }
}
