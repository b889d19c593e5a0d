package io.basalt.data;

import io.basalt.utils.Check;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Paimon's precision (0 to 9 fractional digits) of a timestamp column. Spark's timestamp types have
 * none (they hold micros), but Paimon's BinaryRow stores a timestamp of precision 3 or less inline
 * as millis and a wider one in the variable part, so the schema's precision travels with the column
 * in its {@link StructField} metadata.
 */
public final class TimestampPrecision {
  /** The StructField metadata key; absent means {@link #DEFAULT}. */
  public static final String METADATA_KEY = "paimon.timestamp.precision";

  /** The precision of Spark's timestamps, and of every timestamp column Basalt creates. */
  public static final int DEFAULT = 6;

  /** The largest precision stored inline as epoch millis ("compact" in Paimon). */
  public static final int MAX_COMPACT = 3;

  public static final int MAX = 9;

  private TimestampPrecision() {}

  /** The precision of {@code field}: its metadata value, else {@link #DEFAULT}. */
  public static int of(StructField field) {
    Metadata metadata = field.metadata();
    return metadata.contains(METADATA_KEY) ? (int) metadata.getLong(METADATA_KEY) : DEFAULT;
  }

  /**
   * {@code field} with precision {@code precision} recorded (or removed when it is the default).
   *
   * @throws IllegalArgumentException if the field is not a timestamp or the precision not 0 to 9
   */
  public static StructField with(StructField field, int precision) {
    Check.argument(
        field.dataType() instanceof TimestampType || field.dataType() instanceof TimestampNTZType,
        "Column %s of type %s has no timestamp precision",
        field.name(),
        field.dataType().simpleString());
    Check.argument(
        precision >= 0 && precision <= MAX,
        "Invalid timestamp precision %s for column %s: expected 0 to %s",
        precision,
        field.name(),
        MAX);
    MetadataBuilder metadata = new MetadataBuilder().withMetadata(field.metadata());
    if (precision == DEFAULT) {
      metadata.remove(METADATA_KEY);
    } else {
      metadata.putLong(METADATA_KEY, precision);
    }
    return new StructField(field.name(), field.dataType(), field.nullable(), metadata.build());
  }
}
