package io.basalt.schema;

import io.basalt.utils.Check;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * One version of a table's schema, as stored in {@code schema/schema-<id>} (format-notes.md section
 * 2): columns with field ids, partition and primary keys, and the user's options.
 */
public record TableSchema(
    int version,
    long id,
    List<DataField> fields,
    int highestFieldId,
    List<String> partitionKeys,
    List<String> primaryKeys,
    Map<String, String> options,
    @Nullable String comment,
    long timeMillis)
    implements java.io.Serializable {

  /** The schema file version Basalt writes and the newest it reads. */
  public static final int CURRENT_VERSION = 3;

  public TableSchema {
    fields = List.copyOf(fields);
    partitionKeys = List.copyOf(partitionKeys);
    primaryKeys = List.copyOf(primaryKeys);
    options = Map.copyOf(options);
    Set<String> names = new HashSet<>();
    for (DataField field : fields) {
      Check.argument(names.add(field.name()), "Duplicate column name %s", field.name());
    }
  }

  /** The columns as a Spark schema, each field carrying its id. */
  public StructType rowType() {
    StructField[] structFields = new StructField[fields.size()];
    for (int i = 0; i < structFields.length; i++) {
      structFields[i] = fields.get(i).toStructField();
    }
    return new StructType(structFields);
  }

  /** The field called {@code name}, or null. */
  @Nullable
  public DataField field(String name) {
    for (DataField field : fields) {
      if (field.name().equals(name)) {
        return field;
      }
    }
    return null;
  }

  /** The position of column {@code name}, or -1. */
  public int fieldIndex(String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether this is a primary-key table. */
  public boolean hasPrimaryKey() {
    return !primaryKeys.isEmpty();
  }

  /**
   * Whether this is a cross-partition upsert table: a primary key that leaves out a partition
   * column, so a key's partition can change (validation allows it only with dynamic buckets).
   */
  public boolean crossPartitionUpsert() {
    return hasPrimaryKey() && !primaryKeys.containsAll(partitionKeys);
  }

  /** The primary key without the partition columns, in key order: the key of data files. */
  public List<String> trimmedPrimaryKeys() {
    List<String> trimmed = new ArrayList<>();
    for (String key : primaryKeys) {
      if (!partitionKeys.contains(key)) {
        trimmed.add(key);
      }
    }
    return trimmed;
  }

  /** The fields named by {@code names}, in that order. */
  public List<DataField> fields(List<String> names) {
    List<DataField> result = new ArrayList<>(names.size());
    for (String name : names) {
      DataField field = field(name);
      Check.argument(field != null, "Column %s does not exist", name);
      result.add(field);
    }
    return result;
  }

  /** A copy with other options and the next id (ALTER TABLE SET/UNSET TBLPROPERTIES). */
  public TableSchema withOptions(Map<String, String> newOptions, long newId, long nowMillis) {
    return new TableSchema(
        version,
        newId,
        fields,
        highestFieldId,
        partitionKeys,
        primaryKeys,
        newOptions,
        comment,
        nowMillis);
  }
}
