package io.basalt.schema;

import io.basalt.data.TimestampPrecision;
import io.basalt.utils.Check;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;

/**
 * A top-level column of a table schema: its permanent field id, name, Spark type and nullability,
 * and for a timestamp its Paimon precision (0 to 9; Spark's own is 6), which decides its BinaryRow
 * encoding in keys, partitions and stats ({@link TimestampPrecision}).
 *
 * <p>Fields nested in struct types carry their ids in the {@link StructField} metadata under {@link
 * #FIELD_ID_KEY}, so nested structs keep their ids through renames and Parquet files.
 */
public record DataField(
    int id,
    String name,
    DataType type,
    boolean nullable,
    @Nullable String description,
    int timestampPrecision,
    @Nullable String defaultValue)
    implements java.io.Serializable {

  /**
   * The StructField metadata key of a column's DEFAULT expression (SQL text), Spark's own key, so a
   * table's Spark schema carries it. Paimon stores it as the field's {@code defaultValue}.
   */
  public static final String DEFAULT_KEY = "CURRENT_DEFAULT";

  /**
   * Spark's key for the value rows written before the default existed take; see {@link
   * #DEFAULT_KEY}.
   */
  public static final String EXISTS_DEFAULT_KEY = "EXISTS_DEFAULT";

  /**
   * The StructField metadata key holding a field id (top-level in file schemas, nested in types).
   */
  public static final String FIELD_ID_KEY = "paimon.field.id";

  public DataField {
    Check.notNull(name, "name");
    Check.notNull(type, "type");
    Check.argument(
        timestampPrecision >= 0 && timestampPrecision <= TimestampPrecision.MAX,
        "Invalid timestamp precision %s for column %s",
        timestampPrecision,
        name);
  }

  /** A field without a DEFAULT value. */
  public DataField(
      int id,
      String name,
      DataType type,
      boolean nullable,
      @Nullable String description,
      int timestampPrecision) {
    this(id, name, type, nullable, description, timestampPrecision, null);
  }

  /** A field whose timestamps, if it is one, have Spark's precision 6. */
  public DataField(
      int id, String name, DataType type, boolean nullable, @Nullable String description) {
    this(id, name, type, nullable, description, TimestampPrecision.DEFAULT);
  }

  /** The field described by {@code field}, a column of a table's Spark schema. */
  public static DataField of(StructField field) {
    Metadata metadata = field.metadata();
    return new DataField(
        fieldId(field),
        field.name(),
        field.dataType(),
        field.nullable(),
        metadata.contains(TypeJson.COMMENT_KEY) ? metadata.getString(TypeJson.COMMENT_KEY) : null,
        TimestampPrecision.of(field),
        metadata.contains(DEFAULT_KEY) ? metadata.getString(DEFAULT_KEY) : null);
  }

  /** A copy with {@code value} (SQL text; null for none) as the DEFAULT. */
  public DataField withDefaultValue(@Nullable String value) {
    return new DataField(id, name, type, nullable, description, timestampPrecision, value);
  }

  /** This field as a Spark StructField carrying its id (and comment) in the metadata. */
  public StructField toStructField() {
    MetadataBuilder metadata = new MetadataBuilder().putLong(FIELD_ID_KEY, id);
    if (description != null) {
      metadata.putString("comment", description);
    }
    if (timestampPrecision != TimestampPrecision.DEFAULT) {
      metadata.putLong(TimestampPrecision.METADATA_KEY, timestampPrecision);
    }
    if (defaultValue != null) {
      metadata.putString(DEFAULT_KEY, defaultValue);
    }
    return new StructField(name, type, nullable, metadata.build());
  }

  /** A copy with another name and id (the file schema's {@code _KEY_} columns). */
  public DataField withIdAndName(int newId, String newName) {
    return new DataField(
        newId, newName, type, nullable, description, timestampPrecision, defaultValue);
  }

  /** A copy that is NOT NULL (primary-key columns). */
  public DataField asNotNull() {
    return new DataField(id, name, type, false, description, timestampPrecision, defaultValue);
  }

  /** The field id stored in {@code field}'s metadata. */
  public static int fieldId(StructField field) {
    Metadata metadata = field.metadata();
    Check.argument(metadata.contains(FIELD_ID_KEY), "Field %s carries no field id", field.name());
    return (int) metadata.getLong(FIELD_ID_KEY);
  }
}
