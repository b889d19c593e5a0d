package io.basalt.spark.read;

import io.basalt.options.Options;
import io.basalt.options.ReadOptions;
import io.basalt.spark.SparkTable;
import io.basalt.table.FileStoreTable;
import java.util.Arrays;
import java.util.OptionalLong;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * What the {@code RepartitionLargeBlobScan} rule asks of a scan's table before it plans anything:
 * whether the table keeps BLOB columns, and the split size it was given.
 *
 * @param hasBlobColumn whether {@code blob-field} names a BINARY, ARRAY&lt;BINARY&gt; or MAP&lt;K,
 *     BINARY&gt; column of the table's full schema (whether or not the scan reads it)
 * @param splitTargetSize {@code source.split.target-size} when set as a read option, session conf
 *     or table option; empty when it takes its default
 */
public record BlobScanSizing(boolean hasBlobColumn, OptionalLong splitTargetSize) {
  /** The table option that lists a blob table's BLOB columns, comma separated (Paimon's key). */
  static final String BLOB_FIELD = "blob-field";

  static BlobScanSizing of(FileStoreTable table) {
    Options options = table.options();
    return new BlobScanSizing(
        hasBlobColumn(SparkTable.sparkSchema(table.schema()), options.raw(BLOB_FIELD).orElse(null)),
        options.contains(ReadOptions.SPLIT_TARGET_SIZE)
            ? OptionalLong.of(options.get(ReadOptions.SPLIT_TARGET_SIZE))
            : OptionalLong.empty());
  }

  /** Whether {@code blobField} (comma separated, may be null) names a BLOB-capable column. */
  static boolean hasBlobColumn(StructType schema, @Nullable String blobField) {
    return blobField != null
        && Arrays.stream(blobField.split(",")).anyMatch(name -> isBlob(schema, name.trim()));
  }

  private static boolean isBlob(StructType schema, String name) {
    for (StructField field : schema.fields()) {
      if (field.name().equals(name)) {
        DataType type = field.dataType();
        return type instanceof BinaryType
            || (type instanceof ArrayType array && array.elementType() instanceof BinaryType)
            || (type instanceof MapType map && map.valueType() instanceof BinaryType);
      }
    }
    return false;
  }

  /**
   * The size one input partition should have: {@code source.split.target-size} when set, else
   * Spark's {@code spark.sql.files.maxPartitionBytes} when the session set it, else the default
   * split target size. File-open costs and minimum partition counts play no part.
   *
   * @param sparkMaxPartitionBytes {@code spark.sql.files.maxPartitionBytes}, if set explicitly
   */
  public long maxPartitionBytes(OptionalLong sparkMaxPartitionBytes) {
    long bytes =
        splitTargetSize.isPresent()
            ? splitTargetSize.getAsLong()
            : sparkMaxPartitionBytes.orElse(ReadOptions.SPLIT_TARGET_SIZE.defaultValue());
    // a zero target packs one file per partition (see SplitPacker); here it means one byte
    return Math.max(1, bytes);
  }
}
