package io.basalt.manifest;

import io.basalt.BasaltException;
import io.basalt.avro.AvroRowReader;
import io.basalt.data.TimestampPrecision;
import io.basalt.format.ParquetRowReader;
import io.basalt.format.ParquetRowWriter;
import io.basalt.format.ParquetWriteOptions;
import io.basalt.fs.FileIO;
import io.basalt.schema.DataField;
import io.basalt.utils.CloseableIterator;
import java.io.FileNotFoundException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Function;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType$;
import org.apache.spark.sql.types.BooleanType$;
import org.apache.spark.sql.types.ByteType$;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegerType$;
import org.apache.spark.sql.types.LongType$;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StringType$;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType$;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Manifests, manifest lists and index manifests as Parquet files, for tables with {@code
 * manifest.format} = {@code parquet}. Paimon writes the same rows as in the Avro files, with its
 * row types: so the Avro record schemas of the codecs are the single definition, turned here into
 * Parquet columns (with Paimon's field ids) and the rows converted to and from the records the
 * codecs already encode and decode.
 */
public final class ParquetMetadataFiles {
  /** Columns Paimon types TINYINT, which Avro widens to int and Parquet keeps as INT(8). */
  private static final Set<String> TINYINT_FIELDS = Set.of("_KIND", "_FILE_SOURCE");

  private ParquetMetadataFiles() {}

  /**
   * Streams the rows of {@code path}, each decoded by {@code decoder}.
   *
   * @param schema the codec's Avro schema, whose first field is {@link AvroRowReader#VERSION}
   * @param version the version every row must carry
   * @param description names the file in errors, such as {@code "manifest manifest-1"}
   * @throws FileNotFoundException when the file does not exist
   * @throws BasaltException naming the file when it is not a readable Parquet file
   */
  public static <T> CloseableIterator<T> read(
      FileIO fileIO,
      Path path,
      Schema schema,
      int version,
      Function<GenericRecord, T> decoder,
      String description)
      throws FileNotFoundException {
    // matched by name: Paimon's field ids of metadata rows are not part of the format contract
    StructType readType = sparkType(schema, false, false);
    ParquetRowReader rows;
    try {
      rows = ParquetRowReader.open(fileIO.conf(), path, readType, null);
    } catch (BasaltException e) {
      if (e.getCause() instanceof FileNotFoundException missing) {
        throw missing;
      }
      throw new BasaltException("Failed to read " + description + ": " + e.getMessage(), e);
    }
    return new RecordIterator<>(rows, schema, readType, version, decoder, description);
  }

  /**
   * A writer of {@code path}, which must not exist, whose rows {@code encoder} turns into records
   * of {@code schema}.
   */
  public static <T> SizedRowWriter<T> writer(
      FileIO fileIO,
      Path path,
      Schema schema,
      Function<T, GenericRecord> encoder,
      String compression) {
    StructType fileType = sparkType(schema, true, true);
    ParquetWriteOptions options =
        new ParquetWriteOptions(
            compression,
            ParquetWriteOptions.DEFAULT_ROW_GROUP_SIZE,
            ParquetWriteOptions.DEFAULT_PAGE_SIZE,
            false);
    ParquetRowWriter writer = new ParquetRowWriter(fileIO.conf(), path, fileType, options);
    return new SizedRowWriter<>() {
      private long size = -1;

      @Override
      public void write(T value) {
        writer.write(toRow(encoder.apply(value), schema, fileType));
      }

      @Override
      public long count() {
        return writer.rowCount();
      }

      @Override
      public long size() {
        return size >= 0 ? size : writer.estimatedSize();
      }

      @Override
      public void close() {
        if (size < 0) {
          size = writer.finish().fileSize();
        }
      }

      @Override
      public void abort() {
        writer.abort();
      }
    };
  }

  /**
   * The Spark row type of records of {@code record}. Field ids follow Paimon's: the fields of a
   * record are numbered from 0, except that the top-level record begins with {@code _VERSION},
   * which Paimon numbers -1.
   */
  static StructType sparkType(Schema record, boolean topLevel, boolean withIds) {
    List<StructField> fields = new ArrayList<>();
    List<Schema.Field> avroFields = record.getFields();
    for (int i = 0; i < avroFields.size(); i++) {
      Schema.Field field = avroFields.get(i);
      Schema type = nonNull(field.schema());
      MetadataBuilder metadata = new MetadataBuilder();
      if (withIds) {
        metadata.putLong(DataField.FIELD_ID_KEY, topLevel ? i - 1 : i);
      }
      if (isTimestampMillis(type)) {
        metadata.putLong(TimestampPrecision.METADATA_KEY, TimestampPrecision.MAX_COMPACT);
      }
      fields.add(
          new StructField(
              field.name(),
              sparkType(type, field.name(), withIds),
              isNullable(field.schema()),
              metadata.build()));
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  private static DataType sparkType(Schema type, String name, boolean withIds) {
    return switch (type.getType()) {
      case RECORD -> sparkType(type, false, withIds);
      case INT -> TINYINT_FIELDS.contains(name) ? ByteType$.MODULE$ : IntegerType$.MODULE$;
      case LONG -> isTimestampMillis(type) ? TimestampNTZType$.MODULE$ : LongType$.MODULE$;
      case STRING -> StringType$.MODULE$;
      case BYTES -> BinaryType$.MODULE$;
      case BOOLEAN -> BooleanType$.MODULE$;
      case ARRAY ->
          new ArrayType(
              sparkType(nonNull(type.getElementType()), name, withIds),
              isNullable(type.getElementType()));
      default ->
          throw new IllegalArgumentException(
              "No Parquet form for Avro type " + type + " of metadata field " + name);
    };
  }

  private static boolean isTimestampMillis(Schema type) {
    return type.getLogicalType() instanceof LogicalTypes.TimestampMillis;
  }

  private static boolean isNullable(Schema type) {
    return type.getType() == Schema.Type.UNION;
  }

  /** {@code T} of the union {@code ["null", T]}, or {@code type} itself. */
  private static Schema nonNull(Schema type) {
    if (type.getType() != Schema.Type.UNION) {
      return type;
    }
    for (Schema branch : type.getTypes()) {
      if (branch.getType() != Schema.Type.NULL) {
        return branch;
      }
    }
    throw new IllegalArgumentException("Union without a non-null branch: " + type);
  }

  // ---- records to rows and back ------------------------------------------------------------

  static InternalRow toRow(GenericRecord record, Schema schema, StructType type) {
    List<Schema.Field> fields = schema.getFields();
    Object[] values = new Object[fields.size()];
    for (int i = 0; i < values.length; i++) {
      Object value = record.get(i);
      values[i] =
          value == null
              ? null
              : toSpark(value, nonNull(fields.get(i).schema()), type.fields()[i].dataType());
    }
    return new GenericInternalRow(values);
  }

  private static Object toSpark(Object value, Schema schema, DataType type) {
    return switch (schema.getType()) {
      case RECORD -> toRow((GenericRecord) value, schema, (StructType) type);
      case INT ->
          type instanceof org.apache.spark.sql.types.ByteType
              ? (byte) ((Integer) value).intValue()
              : value;
      case LONG -> isTimestampMillis(schema) ? Math.multiplyExact((Long) value, 1000L) : value;
      case STRING -> UTF8String.fromString(value.toString());
      case BYTES -> bytes((ByteBuffer) value);
      case ARRAY -> {
        List<?> items = (List<?>) value;
        Schema element = nonNull(schema.getElementType());
        DataType elementType = ((ArrayType) type).elementType();
        Object[] converted = new Object[items.size()];
        for (int i = 0; i < converted.length; i++) {
          Object item = items.get(i);
          converted[i] = item == null ? null : toSpark(item, element, elementType);
        }
        yield new GenericArrayData(converted);
      }
      default -> value;
    };
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  static GenericRecord toRecord(InternalRow row, Schema schema, StructType type) {
    GenericRecord record = new GenericData.Record(schema);
    List<Schema.Field> fields = schema.getFields();
    for (int i = 0; i < fields.size(); i++) {
      if (!row.isNullAt(i)) {
        record.put(i, toAvro(row, i, nonNull(fields.get(i).schema()), type.fields()[i].dataType()));
      }
    }
    return record;
  }

  private static Object toAvro(SpecializedGetters data, int i, Schema schema, DataType type) {
    return switch (schema.getType()) {
      case RECORD -> {
        StructType struct = (StructType) type;
        yield toRecord(data.getStruct(i, struct.size()), schema, struct);
      }
      case INT ->
          type instanceof org.apache.spark.sql.types.ByteType
              ? (int) data.getByte(i)
              : data.getInt(i);
      case LONG ->
          isTimestampMillis(schema) ? Math.floorDiv(data.getLong(i), 1000L) : data.getLong(i);
      case STRING -> data.getUTF8String(i).toString();
      case BYTES -> ByteBuffer.wrap(data.getBinary(i));
      case BOOLEAN -> data.getBoolean(i);
      case ARRAY -> {
        ArrayData array = data.getArray(i);
        Schema element = nonNull(schema.getElementType());
        DataType elementType = ((ArrayType) type).elementType();
        List<Object> items = new ArrayList<>(array.numElements());
        for (int j = 0; j < array.numElements(); j++) {
          items.add(array.isNullAt(j) ? null : toAvro(array, j, element, elementType));
        }
        yield items;
      }
      default ->
          throw new IllegalArgumentException("No conversion for Avro type " + schema.getType());
    };
  }

  /** A metadata file's rows, decoded one at a time, each checked for its format version. */
  private static final class RecordIterator<T> implements CloseableIterator<T> {
    private final ParquetRowReader rows;
    private final Schema schema;
    private final StructType type;
    private final int version;
    private final Function<GenericRecord, T> decoder;
    private final String description;

    RecordIterator(
        ParquetRowReader rows,
        Schema schema,
        StructType type,
        int version,
        Function<GenericRecord, T> decoder,
        String description) {
      this.rows = rows;
      this.schema = schema;
      this.type = type;
      this.version = version;
      this.decoder = decoder;
      this.description = description;
    }

    @Override
    public boolean hasNext() {
      try {
        return rows.hasNext();
      } catch (BasaltException e) {
        throw new BasaltException("Failed to read " + description + ": " + e.getMessage(), e);
      }
    }

    @Override
    public T next() {
      if (!hasNext()) {
        throw new NoSuchElementException("No more rows in " + description);
      }
      InternalRow row = rows.next();
      int found = row.isNullAt(0) ? -1 : row.getInt(0);
      if (found != version) {
        throw new BasaltException(
            String.format(
                "Failed to read %s: %s format version %s (expected %s)",
                description,
                found > version ? "written by a newer version, with" : "unsupported",
                found,
                version));
      }
      try {
        return decoder.apply(toRecord(row, schema, type));
      } catch (RuntimeException e) {
        throw new BasaltException("Failed to read " + description + ": " + e.getMessage(), e);
      }
    }

    @Override
    public void close() {
      rows.close();
    }
  }
}
