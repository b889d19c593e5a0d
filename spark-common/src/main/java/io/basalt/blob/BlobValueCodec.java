package io.basalt.blob;

import java.io.IOException;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;

/**
 * How the values of one BLOB column go into its {@code .blob} files and come back, by the column's
 * type: a BINARY value is a record's whole payload; an ARRAY&lt;BINARY&gt; or MAP&lt;K, BINARY&gt;
 * value is one record holding every element, in Paimon's array and map payloads.
 */
public final class BlobValueCodec {
  private final DataType type;
  @Nullable private final BlobMapKeys keys;

  private BlobValueCodec(DataType type, @Nullable BlobMapKeys keys) {
    this.type = type;
    this.keys = keys;
  }

  /**
   * The codec of a column of {@code type}, or empty when such a column cannot be stored in {@code
   * .blob} files (not BINARY, ARRAY&lt;BINARY&gt; or MAP&lt;K, BINARY&gt;, or a map key type Paimon
   * does not store).
   */
  public static Optional<BlobValueCodec> of(DataType type) {
    if (type instanceof BinaryType
        || (type instanceof ArrayType array && array.elementType() instanceof BinaryType)) {
      return Optional.of(new BlobValueCodec(type, null));
    }
    if (type instanceof MapType map && map.valueType() instanceof BinaryType) {
      return BlobMapKeys.of(map.keyType()).map(keys -> new BlobValueCodec(type, keys));
    }
    return Optional.empty();
  }

  /** Appends the value at {@code ordinal} of {@code row} (null included) to {@code writer}. */
  public void write(BlobFileWriter writer, InternalRow row, int ordinal) throws IOException {
    boolean isNull = row.isNullAt(ordinal);
    if (type instanceof BinaryType) {
      writer.write(isNull ? null : row.getBinary(ordinal));
    } else if (type instanceof ArrayType) {
      writer.writeArray(isNull ? null : row.getArray(ordinal));
    } else {
      writer.writeMap(isNull ? null : row.getMap(ordinal), ((MapType) type).keyType(), keys);
    }
  }

  /** The value of row {@code row} of {@code reader}'s file, as Spark's row model holds it. */
  @Nullable
  public Object read(BlobFileReader reader, int row) throws IOException {
    if (type instanceof BinaryType) {
      return reader.read(row);
    } else if (type instanceof ArrayType) {
      return reader.readArray(row);
    }
    return reader.readMap(row, keys);
  }
}
