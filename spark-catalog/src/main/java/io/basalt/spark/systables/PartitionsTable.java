package io.basalt.spark.systables;

import static io.basalt.spark.systables.Values.str;
import static io.basalt.spark.systables.Values.timestamp;

import io.basalt.data.BinaryRow;
import io.basalt.index.DeletionVectorMeta;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexManifestEntry;
import io.basalt.index.IndexManifests;
import io.basalt.manifest.ManifestEntry;
import io.basalt.options.TableOptions;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code t$partitions} and {@code t$buckets}: the live files of the latest snapshot summed per
 * partition, or per (partition, bucket), with Paimon's columns. As in Paimon, {@code t$partitions}
 * names a partition like its directory ({@code dt=2024-10-09/hh=01}) and {@code t$buckets} lists
 * its values ({@code [2024-10-09, 01]}, as {@code t$files} does).
 */
class PartitionsTable extends SystemTable {
  private final boolean perBucket;

  PartitionsTable(FileStoreTable table) {
    this(table, false);
  }

  PartitionsTable(FileStoreTable table, boolean perBucket) {
    super(table);
    this.perBucket = perBucket;
  }

  @Override
  protected String systemName() {
    return perBucket ? "buckets" : "partitions";
  }

  @Override
  public StructType schema() {
    StructType schema = new StructType().add("partition", DataTypes.StringType);
    if (perBucket) {
      schema = schema.add("bucket", DataTypes.IntegerType, false);
    }
    schema =
        schema
            .add("record_count", DataTypes.LongType, false)
            .add("file_size_in_bytes", DataTypes.LongType, false)
            .add("file_count", DataTypes.LongType, false)
            .add("last_update_time", DataTypes.TimestampType);
    if (perBucket) {
      return schema;
    }
    // the partition metadata a catalog server keeps; a file system catalog has none of it
    return schema
        .add("created_at", DataTypes.TimestampType)
        .add("created_by", DataTypes.StringType)
        .add("updated_by", DataTypes.StringType)
        .add("options", DataTypes.StringType)
        .add("total_buckets", DataTypes.IntegerType, false)
        .add("done", DataTypes.BooleanType, false)
        .add("deleted_record_count", DataTypes.LongType);
  }

  private static final class Totals {
    long records;
    long bytes;
    long files;
    int totalBuckets;
    Long lastUpdate;
    BinaryRow partition;
  }

  private record Group(String partition, int bucket) {}

  @Override
  protected List<InternalRow> rows() {
    StructType partitionType = table.partitionType();
    String defaultName = table.options().get(TableOptions.PARTITION_DEFAULT_NAME);
    Map<BinaryRow, String> names = new LinkedHashMap<>();
    Map<Group, Totals> groups =
        new TreeMap<>(
            (a, b) ->
                a.partition.equals(b.partition)
                    ? Integer.compare(a.bucket, b.bucket)
                    : a.partition.compareTo(b.partition));
    for (ManifestEntry entry : FilesTable.liveEntries(table)) {
      String partition =
          names.computeIfAbsent(
              entry.partition(),
              p ->
                  perBucket
                      ? Values.list(p, partitionType)
                      : Values.spec(p, partitionType, defaultName));
      Totals totals =
          groups.computeIfAbsent(
              new Group(partition, perBucket ? entry.bucket() : 0), g -> new Totals());
      totals.partition = entry.partition();
      totals.records += entry.file().rowCount();
      totals.bytes += entry.file().fileSize();
      totals.files++;
      totals.totalBuckets = entry.totalBuckets();
      Long created = entry.file().creationTimeMillis();
      if (created != null && (totals.lastUpdate == null || created > totals.lastUpdate)) {
        totals.lastUpdate = created;
      }
    }
    Map<BinaryRow, Long> deleted = perBucket ? Map.of() : deletedRows();
    List<InternalRow> rows = new ArrayList<>();
    for (Map.Entry<Group, Totals> group : groups.entrySet()) {
      Totals t = group.getValue();
      List<Object> values = new ArrayList<>();
      values.add(str(group.getKey().partition()));
      if (perBucket) {
        values.add(group.getKey().bucket());
      }
      values.add(t.records);
      values.add(t.bytes);
      values.add(t.files);
      values.add(timestamp(t.lastUpdate));
      if (!perBucket) {
        values.add(null); // created_at
        values.add(null); // created_by
        values.add(null); // updated_by
        values.add(null); // options
        values.add(t.totalBuckets);
        values.add(false); // done: set by mark_partition_done, which Basalt does not have
        values.add(deleted.containsKey(t.partition) ? deleted.get(t.partition) : (Long) 0L);
      }
      rows.add(new GenericInternalRow(values.toArray()));
    }
    return rows;
  }

  /**
   * Rows the deletion vectors of the snapshot delete, per partition; a partition maps to null when
   * a vector does not record its cardinality (unknown), as in Paimon.
   */
  private Map<BinaryRow, Long> deletedRows() {
    Snapshot snapshot = table.timeTravelSnapshot().or(table::latestSnapshot).orElse(null);
    Map<BinaryRow, Long> result = new HashMap<>();
    if (snapshot == null || snapshot.indexManifest() == null) {
      return result;
    }
    for (IndexManifestEntry entry :
        new IndexManifests(table.fileIO(), table.paths()).read(snapshot.indexManifest())) {
      IndexFileMeta index = entry.indexFile();
      if (index.dvRanges() == null
          || result.containsKey(entry.partition()) && result.get(entry.partition()) == null) {
        continue;
      }
      result.put(entry.partition(), add(result.getOrDefault(entry.partition(), 0L), index));
    }
    return result;
  }

  @Nullable
  private static Long add(long count, IndexFileMeta index) {
    for (DeletionVectorMeta range : index.dvRanges().values()) {
      if (range.cardinality() == null) {
        return null;
      }
      count += range.cardinality();
    }
    return count;
  }
}
