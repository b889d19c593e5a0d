package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.bucket.PostponedBucket;
import io.basalt.data.BinaryRow;
import io.basalt.manifest.ManifestEntry;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.rescale(table => 'db.t', bucket_num => 16, partitions => 'dt=1;dt=2')}, after
 * Paimon's rescale action: rewrites the selected partitions (all when {@code partitions} is absent)
 * with {@code bucket_num} buckets (default: the table's {@code bucket}; required on
 * postponed-bucket tables) in one commit that replaces exactly the bucket files it read; partitions
 * already at that count are left alone. A writer that commits to those partitions in between makes
 * the commit fail on its bucket-count check, so no row is lost. Postponed files stay; their
 * compaction uses the new count.
 */
final class RescaleProcedure extends BaseProcedure {
  static final String NAME = "rescale";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("bucket_num", DataTypes.IntegerType).defaultValue("NULL").build(),
    ProcedureParameter.in("partitions", DataTypes.StringType).defaultValue("NULL").build()
  };

  RescaleProcedure(SparkCatalog catalog) {
    super(
        catalog,
        NAME,
        "Rewrites partitions of a bucketed table with a new number of buckets",
        PARAMETERS,
        RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    String name = input.getUTF8String(0).toString();
    Integer bucketNum = input.isNullAt(1) ? null : input.getInt(1);
    String partitions = input.isNullAt(2) ? null : input.getUTF8String(2).toString().trim();
    FileStoreTable table = loadTable(name);
    int target = targetCount(table, bucketNum);
    Optional<Snapshot> latest = table.latestSnapshot();
    List<ManifestEntry> live =
        latest.map(s -> table.newScan().liveEntries(s)).orElse(List.<ManifestEntry>of());
    Set<BinaryRow> selected = select(table, live, partitions);
    // a partition already at the target count keeps its files: rewriting it would gain nothing,
    // and a concurrent write into it would not trip the commit's bucket-count check
    for (ManifestEntry entry : live) {
      if (entry.bucket() != PostponedBucket.BUCKET && entry.totalBuckets() == target) {
        selected.remove(entry.partition());
      }
    }
    if (selected.isEmpty()) {
      return result(true); // nothing to rewrite
    }
    Snapshot snapshot = latest.get();
    List<ManifestEntry> replaced = new ArrayList<>();
    for (ManifestEntry entry : live) {
      if (entry.bucket() != PostponedBucket.BUCKET && selected.contains(entry.partition())) {
        replaced.add(entry);
      }
    }
    List<DataSplit> splits = new ArrayList<>();
    for (DataSplit split : table.newScan().withSnapshot(snapshot).plan().splits()) {
      if (selected.contains(split.partition())) {
        splits.add(split);
      }
    }
    new RescaleJob(table, target).run(snapshot.id(), selected, splits, replaced);
    return result(true);
  }

  private int targetCount(FileStoreTable table, @Nullable Integer bucketNum) {
    int configured = table.bucketCount();
    if (configured == -1) {
      throw new BasaltException(
          String.format(
              "%s: table %s has 'bucket' = '-1' (%s), which has no bucket count to change. Fix:"
                  + " rescale a table with 'bucket' = N or -2.",
              NAME,
              table.name(),
              table.hasPrimaryKey() ? "dynamic buckets" : "a bucket-unaware append table"));
    }
    if (bucketNum == null) {
      if (configured == PostponedBucket.BUCKET) {
        throw new BasaltException(
            String.format(
                "%s: table %s has postponed buckets ('bucket' = '-2'), so bucket_num is required."
                    + " Fix: CALL sys.rescale(table => '%s', bucket_num => N).",
                NAME, table.name(), table.name()));
      }
      return configured;
    }
    if (bucketNum < 1) {
      throw new BasaltException(
          String.format(
              "%s: invalid bucket_num %s for table %s: expected a number of buckets >= 1."
                  + " Nothing was committed. Fix: pass bucket_num => N with N >= 1.",
              NAME, bucketNum, table.name()));
    }
    return bucketNum;
  }

  /**
   * The partitions to rewrite: those holding bucket files, all of them or those each ';'-separated
   * spec of {@code partitions} selects; a spec that selects none is an error.
   */
  private Set<BinaryRow> select(
      FileStoreTable table, List<ManifestEntry> live, @Nullable String partitions) {
    Set<BinaryRow> existing = new LinkedHashSet<>();
    for (ManifestEntry entry : live) {
      if (entry.bucket() != PostponedBucket.BUCKET) {
        existing.add(entry.partition());
      }
    }
    if (partitions == null || partitions.isEmpty()) {
      return existing;
    }
    if (table.partitionType().isEmpty()) {
      throw new BasaltException(
          String.format(
              "%s: 'partitions' selects partitions, but table %s is not partitioned. Nothing was"
                  + " committed. Fix: drop the 'partitions' argument.",
              NAME, table.name()));
    }
    List<BinaryRow> candidates = new ArrayList<>(existing);
    PartitionSelection selection = new PartitionSelection(table);
    Set<BinaryRow> selected = new LinkedHashSet<>();
    for (String spec : partitions.split(";")) {
      if (spec.isBlank()) {
        continue;
      }
      Set<BinaryRow> matched;
      try {
        matched =
            selection.select(
                candidates,
                new CompactArguments(
                    table.name(),
                    spec,
                    true,
                    CompactArguments.OrderStrategy.NONE,
                    List.of(),
                    null,
                    Map.of(),
                    null));
      } catch (BasaltException e) {
        // the shared partition parser speaks for compact; this call is a rescale
        throw new BasaltException(e.getMessage().replaceFirst("^compact on ", NAME + " on "), e);
      }
      if (matched.isEmpty()) {
        throw new BasaltException(
            String.format(
                "%s: partition '%s' of table %s does not exist (or holds no bucket files yet)."
                    + " Nothing was committed. Fix: pass existing partitions, as in SELECT * FROM"
                    + " %s$partitions.",
                NAME, spec.trim(), table.name(), table.name()));
      }
      selected.addAll(matched);
    }
    return selected;
  }
}
