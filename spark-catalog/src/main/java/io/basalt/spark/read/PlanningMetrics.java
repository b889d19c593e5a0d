package io.basalt.spark.read;

import io.basalt.operation.scan.ScanMetrics;
import java.util.Arrays;
import java.util.stream.Stream;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * Scan metrics reported by the driver after planning: what the manifests and statistics let the
 * scan skip. Spark creates metrics by class name, so each is a class of its own.
 */
public final class PlanningMetrics {
  private PlanningMetrics() {}

  /** {@code taskMetrics} followed by the planning metrics: what a batch scan supports. */
  static CustomMetric[] withPlanning(CustomMetric... taskMetrics) {
    CustomMetric[] planning = {
      new FilesPlanned(),
      new FilesSkipped(),
      new BucketsPruned(),
      new ManifestsSkipped(),
      new ManifestsRead(),
      new ManifestsFromCache()
    };
    return Stream.concat(Arrays.stream(taskMetrics), Arrays.stream(planning))
        .toArray(CustomMetric[]::new);
  }

  /** The values of the planning metrics, reported by the driver once the scan planned. */
  static CustomTaskMetric[] values(ScanMetrics metrics) {
    return new CustomTaskMetric[] {
      ColumnarSplitsMetric.taskValue(FilesPlanned.NAME, metrics.filesPlanned()),
      ColumnarSplitsMetric.taskValue(FilesSkipped.NAME, metrics.filesSkipped()),
      ColumnarSplitsMetric.taskValue(BucketsPruned.NAME, metrics.bucketsSkipped()),
      ColumnarSplitsMetric.taskValue(ManifestsSkipped.NAME, metrics.manifestsSkipped()),
      ColumnarSplitsMetric.taskValue(ManifestsRead.NAME, metrics.manifestsRead()),
      ColumnarSplitsMetric.taskValue(ManifestsFromCache.NAME, metrics.manifestsFromCache())
    };
  }

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

  /**
   * Manifests decoded from storage while planning. Summed over the scans of a query it is the
   * number of distinct manifests the query needed: a scan that plans again, or a second scan of the
   * same table, takes them from the driver's manifest cache instead.
   */
  public static final class ManifestsRead extends CustomSumMetric {
    static final String NAME = "manifestsRead";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String description() {
      return "manifests read";
    }
  }

  /** Manifests planning took from the driver's manifest cache instead of decoding them. */
  public static final class ManifestsFromCache extends CustomSumMetric {
    static final String NAME = "manifestsFromCache";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public String description() {
      return "manifests from cache";
    }
  }
}
