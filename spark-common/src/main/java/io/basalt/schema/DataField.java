package io.basalt.schema;

import io.basalt.utils.Check;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;

/**
 * A top-level column of a table schema: its permanent field id, name, Spark type and nullability.
 *
 * <p>Fields nested in struct types carry their ids in the {@link StructField} metadata under {@link
 * #FIELD_ID_KEY}, so nested structs keep their ids through renames and Parquet files.
 */
public record DataField(
    int id, String name, DataType type, boolean nullable, @Nullable String description)
    implements java.io.Serializable {

  /**
   * The StructField metadata key holding a field id (top-level in file schemas, nested in types).
   */
  public static final String FIELD_ID_KEY = "paimon.field.id";

  public DataField {
    Check.notNull(name, "name");
    Check.notNull(type, "type");
  }

  /** This field as a Spark StructField carrying its id (and comment) in the metadata. */
  public StructField toStructField() {
    MetadataBuilder metadata = new MetadataBuilder().putLong(FIELD_ID_KEY, id);
    if (description != null) {
      metadata.putString("comment", description);
    }
    return new StructField(name, type, nullable, metadata.build());
  }

  /** A copy with another name and id (the file schema's {@code _KEY_} columns). */
  public DataField withIdAndName(int newId, String newName) {
    return new DataField(newId, newName, type, nullable, description);
  }

  /** A copy that is NOT NULL (primary-key columns). */
  public DataField asNotNull() {
    return new DataField(id, name, type, false, description);
  }

  /** The field id stored in {@code field}'s metadata. */
  public static int fieldId(StructField field) {
    Metadata metadata = field.metadata();
    Check.argument(metadata.contains(FIELD_ID_KEY), "Field %s carries no field id", field.name());
    return (int) metadata.getLong(FIELD_ID_KEY);
  }
}
