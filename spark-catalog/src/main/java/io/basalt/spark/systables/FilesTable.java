package io.basalt.spark.systables;

import static io.basalt.spark.systables.Values.str;
import static io.basalt.spark.systables.Values.timestamp;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.SimpleStats;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.rowtracking.RowTracking;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code t$files}: one row per live data file of the latest snapshot, with its statistics rendered
 * like Paimon ({@code [k1, k2]} keys, {@code {col=value, ...}} stats).
 */
final class FilesTable extends SystemTable {
  private static final StructType SCHEMA =
      new StructType()
          .add("partition", DataTypes.StringType, false)
          .add("bucket", DataTypes.IntegerType, false)
          .add("file_path", DataTypes.StringType, false)
          .add("file_format", DataTypes.StringType, false)
          .add("schema_id", DataTypes.LongType, false)
          .add("level", DataTypes.IntegerType, false)
          .add("record_count", DataTypes.LongType, false)
          .add("file_size_in_bytes", DataTypes.LongType, false)
          .add("min_key", DataTypes.StringType)
          .add("max_key", DataTypes.StringType)
          .add("null_value_counts", DataTypes.StringType)
          .add("min_value_stats", DataTypes.StringType)
          .add("max_value_stats", DataTypes.StringType)
          .add("min_sequence_number", DataTypes.LongType, false)
          .add("max_sequence_number", DataTypes.LongType, false)
          .add("creation_time", DataTypes.TimestampType)
          // Paimon's column names, camel case included
          .add("deleteRowCount", DataTypes.LongType)
          .add("file_source", DataTypes.StringType)
          .add("first_row_id", DataTypes.LongType)
          .add("write_cols", DataTypes.createArrayType(DataTypes.StringType, false));

  private final Map<Long, TableSchema> schemas = new HashMap<>();

  FilesTable(FileStoreTable table) {
    super(table);
  }

  @Override
  protected String systemName() {
    return "files";
  }

  @Override
  public StructType schema() {
    return SCHEMA;
  }

  /**
   * The live entries of the snapshot the table's time-travel options select, else of the latest;
   * empty for a table without snapshots.
   */
  static List<ManifestEntry> liveEntries(FileStoreTable table) {
    Snapshot latest = table.timeTravelSnapshot().or(table::latestSnapshot).orElse(null);
    return latest == null ? List.of() : table.newScan().liveEntries(latest);
  }

  @Override
  protected List<InternalRow> rows() {
    List<InternalRow> rows = new ArrayList<>();
    StructType partitionType = table.partitionType();
    for (ManifestEntry entry : liveEntries(table)) {
      DataFileMeta file = entry.file();
      TableSchema fileSchema =
          schemas.computeIfAbsent(file.schemaId(), table.schemaManager()::schema);
      String path =
          file.externalPath() != null
              ? file.externalPath()
              : new Path(
                      table.dataFilePaths().bucketDir(entry.partition(), entry.bucket()),
                      file.fileName())
                  .toString();
      int dot = file.fileName().lastIndexOf('.');
      String format = dot < 0 ? "" : file.fileName().substring(dot + 1);
      StructType keyType = keyType(fileSchema);
      StructType statsType = statsType(fileSchema, file.valueStatsCols());
      rows.add(
          new GenericInternalRow(
              new Object[] {
                str(Values.list(entry.partition(), partitionType)),
                entry.bucket(),
                str(path),
                str(format),
                file.schemaId(),
                file.level(),
                file.rowCount(),
                file.fileSize(),
                str(key(file.minKey(), keyType)),
                str(key(file.maxKey(), keyType)),
                str(nullCounts(file.valueStats(), statsType)),
                str(values(file.valueStats().minValues(), statsType)),
                str(values(file.valueStats().maxValues(), statsType)),
                file.minSequenceNumber(),
                file.maxSequenceNumber(),
                timestamp(file.creationTimeMillis()),
                file.deleteRowCount(),
                str(fileSource(file.fileSource())),
                file.firstRowId(),
                file.writeCols() == null
                    ? null
                    : new GenericArrayData(file.writeCols().stream().map(Values::str).toArray())
              }));
    }
    return rows;
  }

  /** Paimon's names of {@link DataFileMeta#fileSource()}. */
  @Nullable
  static String fileSource(@Nullable Integer source) {
    if (source == null) {
      return null;
    }
    return switch (source) {
      case DataFileMeta.SOURCE_APPEND -> "APPEND";
      case DataFileMeta.SOURCE_COMPACT -> "COMPACT";
      default ->
          throw new IllegalStateException(
              "Unknown file source "
                  + source
                  + " in a manifest; expected 0 (APPEND) or 1 (COMPACT)");
    };
  }

  private static StructType keyType(TableSchema schema) {
    if (!schema.hasPrimaryKey()) {
      return new StructType();
    }
    // the table's key names, with the key fields' types and timestamp precisions
    StructField[] keys = new KeyValueLayout(schema).keyType().fields();
    List<String> names = schema.trimmedPrimaryKeys();
    StructField[] fields = new StructField[keys.length];
    for (int i = 0; i < keys.length; i++) {
      StructField key = keys[i];
      fields[i] = new StructField(names.get(i), key.dataType(), key.nullable(), key.metadata());
    }
    return new StructType(fields);
  }

  private static StructType statsType(TableSchema schema, List<String> statsCols) {
    StructType rowType = schema.rowType();
    if (statsCols == null) {
      return rowType;
    }
    StructType type = new StructType();
    for (String name : statsCols) {
      // rewritten files of row-tracking tables name their stored tracking columns too
      if (RowTracking.ROW_ID.equals(name) && !rowType.getFieldIndex(name).isDefined()) {
        type = type.add(RowTracking.rowIdField());
      } else if (RowTracking.SEQUENCE_NUMBER.equals(name)
          && !rowType.getFieldIndex(name).isDefined()) {
        type = type.add(RowTracking.sequenceNumberField());
      } else {
        type = type.add(rowType.apply(name));
      }
    }
    return type;
  }

  private static String key(BinaryRow key, StructType keyType) {
    if (key.arity() == 0 || key.arity() != keyType.size()) {
      return null;
    }
    return Values.list(key, keyType);
  }

  private static String values(BinaryRow values, StructType type) {
    if (values.arity() == 0 || values.arity() != type.size()) {
      return null;
    }
    List<String> strings;
    try {
      strings = Values.strings(values, type);
    } catch (IllegalArgumentException e) {
      return null; // a type the stats codec cannot decode
    }
    Map<String, String> byName = new LinkedHashMap<>();
    for (int i = 0; i < type.size(); i++) {
      byName.put(type.fields()[i].name(), strings.get(i));
    }
    return byName.toString();
  }

  private static String nullCounts(SimpleStats stats, StructType type) {
    List<Long> counts = stats.nullCounts();
    if (counts == null || counts.size() != type.size()) {
      return null;
    }
    Map<String, Long> byName = new LinkedHashMap<>();
    for (int i = 0; i < type.size(); i++) {
      byName.put(type.fields()[i].name(), counts.get(i));
    }
    return byName.toString();
  }
}
