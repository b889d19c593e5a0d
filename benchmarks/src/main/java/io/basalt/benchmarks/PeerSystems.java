package io.basalt.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;

/** The session all peers share, and the systems chosen with {@code --systems}. */
final class PeerSystems {
  /** Every system, in report order; the first one present is the baseline of the ratios. */
  static final List<String> ALL = List.of("parquet", "iceberg", "delta", "basalt", "basalt-dv");

  /**
   * The three extensions, comma-separated: Spark applies them in this order and each one's parser
   * wraps the previous one's, so Basalt's, Iceberg's and Delta's statements all parse.
   */
  static final String EXTENSIONS =
      "io.basalt.spark.extensions.BasaltSparkSessionExtensions,"
          + "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions,"
          + "io.delta.sql.DeltaSparkSessionExtension";

  /** Session settings of the join step: storage-partitioned joins where a system offers them. */
  static final List<String> GROUPING_CONF =
      List.of(
          "spark.paimon.scan.preserve-data-grouping",
          "spark.sql.iceberg.planning.preserve-data-grouping",
          "spark.sql.sources.v2.bucketing.enabled");

  private PeerSystems() {}

  /**
   * One local session with Basalt's catalog ({@code paimon}), an Iceberg Hadoop catalog ({@code
   * iceberg}) and Delta's catalog as {@code spark_catalog}, all under {@code workDir}.
   */
  static SparkSession startSession(Path workDir) {
    return SparkSession.builder()
        .master(Harness.MASTER)
        .appName("basalt-peer-benchmark")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", String.valueOf(Harness.SHUFFLE_PARTITIONS))
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.extensions", EXTENSIONS)
        .config("spark.sql.warehouse.dir", workDir.resolve("spark-warehouse").toString())
        .config(
            "spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.sql.catalog.paimon", "io.basalt.spark.SparkCatalog")
        .config("spark.sql.catalog.paimon.warehouse", workDir.resolve("basalt").toString())
        .config("spark.sql.catalog.iceberg", "org.apache.iceberg.spark.SparkCatalog")
        .config("spark.sql.catalog.iceberg.type", "hadoop")
        .config("spark.sql.catalog.iceberg.warehouse", workDir.resolve("iceberg").toString())
        // Delta rebuilds a table's state after each commit with this many tasks (default 50);
        // 8 like the shuffle partitions above, as Delta's own local tests lower it too
        .config(
            "spark.databricks.delta.snapshotPartitions", String.valueOf(Harness.SHUFFLE_PARTITIONS))
        // the Parquet baseline is read by path: keep its dt column a string, as in the tables
        .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
        .getOrCreate();
  }

  /** The systems named in {@code ids} (from {@link #takeSystems}), in {@link #ALL}'s order. */
  static List<PeerSystem> create(List<String> ids, SparkSession spark, Path workDir) {
    List<PeerSystem> systems = new ArrayList<>();
    for (String id : ALL) {
      if (ids.contains(id)) {
        systems.add(
            switch (id) {
              case "parquet" -> new ParquetPeer(spark, workDir);
              case "iceberg" -> new IcebergPeer(spark);
              case "delta" -> new DeltaPeer(spark, workDir);
              case "basalt" -> new BasaltPeer(spark, false);
              default -> new BasaltPeer(spark, true);
            });
      }
    }
    return systems;
  }

  /**
   * Removes {@code --systems a,b} from {@code args} and returns its systems; {@link #ALL} when the
   * option is absent.
   *
   * @throws IllegalArgumentException if the value is missing or names no system
   */
  static List<String> takeSystems(List<String> args) {
    int at = args.indexOf("--systems");
    if (at < 0) {
      return ALL;
    }
    if (at + 1 >= args.size()) {
      throw new IllegalArgumentException(
          "Missing value after --systems; expected some of " + String.join(",", ALL));
    }
    List<String> ids = parse(args.remove(at + 1));
    args.remove(at);
    return ids;
  }

  /** Parses the value of {@code --systems}, e.g. {@code parquet,basalt}. */
  private static List<String> parse(String value) {
    List<String> ids = new ArrayList<>();
    for (String id : value.split(",")) {
      if (!id.isBlank()) {
        ids.add(id.trim().toLowerCase(Locale.ROOT));
      }
    }
    for (String id : ids) {
      if (!ALL.contains(id)) {
        throw new IllegalArgumentException(
            "Unknown system '" + id + "' in --systems; expected some of " + String.join(",", ALL));
      }
    }
    if (ids.isEmpty()) {
      throw new IllegalArgumentException(
          "--systems '" + value + "' names no system; expected some of " + String.join(",", ALL));
    }
    return ids;
  }

  /** The upsert of Iceberg and Delta: update matched keys, insert the others. */
  static String mergeInto(String table, String batchView) {
    return String.format(
        "MERGE INTO %s t USING %s s ON t.dt = s.dt AND t.order_id = s.order_id"
            + " WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *",
        table, batchView);
  }
}
