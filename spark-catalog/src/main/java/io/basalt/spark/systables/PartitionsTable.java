package io.basalt.spark.systables;

import static io.basalt.spark.systables.Values.str;
import static io.basalt.spark.systables.Values.timestamp;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.ManifestEntry;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code t$partitions} and {@code t$buckets}: the live files of the latest snapshot summed per
 * partition, or per (partition, bucket).
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
    StructType schema = new StructType().add("partition", DataTypes.StringType, false);
    if (perBucket) {
      schema = schema.add("bucket", DataTypes.IntegerType, false);
    }
    return schema
        .add("record_count", DataTypes.LongType, false)
        .add("file_size_in_bytes", DataTypes.LongType, false)
        .add("file_count", DataTypes.LongType, false)
        .add("last_update_time", DataTypes.TimestampType);
  }

  private static final class Totals {
    long records;
    long bytes;
    long files;
    Long lastUpdate;
  }

  private record Group(String partition, int bucket) {}

  @Override
  protected List<InternalRow> rows() {
    StructType partitionType = table.partitionType();
    Map<BinaryRow, String> names = new LinkedHashMap<>();
    Map<Group, Totals> groups =
        new TreeMap<>(
            (a, b) ->
                a.partition.equals(b.partition)
                    ? Integer.compare(a.bucket, b.bucket)
                    : a.partition.compareTo(b.partition));
    for (ManifestEntry entry : FilesTable.liveEntries(table)) {
      String partition =
          names.computeIfAbsent(entry.partition(), p -> Values.list(p, partitionType));
      Totals totals =
          groups.computeIfAbsent(
              new Group(partition, perBucket ? entry.bucket() : 0), g -> new Totals());
      totals.records += entry.file().rowCount();
      totals.bytes += entry.file().fileSize();
      totals.files++;
      Long created = entry.file().creationTimeMillis();
      if (created != null && (totals.lastUpdate == null || created > totals.lastUpdate)) {
        totals.lastUpdate = created;
      }
    }
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
      rows.add(new GenericInternalRow(values.toArray()));
    }
    return rows;
  }
}
