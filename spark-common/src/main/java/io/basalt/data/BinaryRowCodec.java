package io.basalt.data;

import io.basalt.utils.Check;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Converts Spark {@link InternalRow}s of a fixed list of atomic types to and from Paimon's {@link
 * BinaryRow} byte form (format-notes.md section 5), and frames a BinaryRow for manifests.
 *
 * <p>The encoding is byte-exact with Paimon's row projections, because bucket hashes and partition
 * equality are computed over these bytes. Nulls of the two variable-width fixed types (decimals of
 * precision above 18 and timestamps) still reserve their zeroed variable-part space, as Paimon's
 * projections do.
 *
 * <p>A codec keeps a growable scratch buffer, so it is not thread-safe; use one per thread. Rows
 * returned by {@link #toBinary} and {@link #toRow} are independent of the codec and of each other.
 */
public final class BinaryRowCodec {
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle SHORT_LE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_BE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  /** Largest variable-width value kept inside its 8-byte slot. */
  private static final int MAX_INLINE_LENGTH = 7;

  private final DataType[] types;
  private final FieldKind[] kinds;
  private final int nullBitsSize;
  private final int fixedSize;
  private byte[] buffer;

  /**
   * A codec for rows whose fields have {@code types}, in order; timestamps have Spark's precision
   * 6. Use {@link #BinaryRowCodec(StructType)} for columns of a table schema, whose timestamps may
   * have another precision.
   */
  public BinaryRowCodec(DataType... types) {
    this(types, defaultPrecisions(types));
  }

  /**
   * A codec for rows of {@code schema}'s field types, with each timestamp field's Paimon precision
   * taken from its metadata ({@link TimestampPrecision}).
   */
  public BinaryRowCodec(StructType schema) {
    this(
        Arrays.stream(schema.fields()).map(StructField::dataType).toArray(DataType[]::new),
        Arrays.stream(schema.fields()).mapToInt(TimestampPrecision::of).toArray());
  }

  private BinaryRowCodec(DataType[] types, int[] precisions) {
    Check.notNull(types, "types");
    this.types = types.clone();
    this.kinds = new FieldKind[types.length];
    for (int i = 0; i < types.length; i++) {
      kinds[i] = FieldKind.of(Check.notNull(types[i], "type of field " + i), precisions[i], i);
    }
    this.nullBitsSize = nullBitsSize(types.length);
    this.fixedSize = nullBitsSize + 8 * types.length;
    this.buffer = new byte[Math.max(64, fixedSize * 2)];
  }

  private static int[] defaultPrecisions(DataType[] types) {
    int[] precisions = new int[Check.notNull(types, "types").length];
    Arrays.fill(precisions, TimestampPrecision.DEFAULT);
    return precisions;
  }

  /** The number of fields of the rows this codec handles. */
  public int arity() {
    return types.length;
  }

  /** Bytes taken by the RowKind header and the null bits of a row with {@code arity} fields. */
  static int nullBitsSize(int arity) {
    return ((arity + 63 + 8) / 64) * 8;
  }

  /**
   * Encodes the first {@link #arity()} fields of {@code row}.
   *
   * @throws IllegalArgumentException if a decimal does not fit its declared precision and scale
   */
  public BinaryRow toBinary(InternalRow row) {
    Check.notNull(row, "row");
    int length = encode(row); // may replace the buffer with a larger one, so read it after
    return new BinaryRow(kinds.length, Arrays.copyOf(buffer, length));
  }

  /**
   * Encodes {@code row} as {@link #toBinary} does, into a buffer the codec reuses: its bytes are
   * {@code reusedBytes()[0, length)} until the next call. For hashing a row per write without a
   * copy.
   *
   * @return the length of the encoded row
   */
  public int encodeReused(InternalRow row) {
    return encode(row);
  }

  /** The buffer {@link #encodeReused} wrote into. */
  public byte[] reusedBytes() {
    return buffer;
  }

  private int encode(InternalRow row) {
    Arrays.fill(buffer, 0, fixedSize, (byte) 0);
    int cursor = fixedSize;
    for (int i = 0; i < kinds.length; i++) {
      cursor = writeField(row, i, cursor);
    }
    return cursor;
  }

  /** Writes field {@code i}; returns the new end of the variable part. */
  private int writeField(InternalRow row, int i, int cursor) {
    int slot = nullBitsSize + 8 * i;
    boolean isNull = row.isNullAt(i);
    if (isNull) {
      int bit = i + 8;
      buffer[bit >>> 3] |= (byte) (1 << (bit & 7));
    }
    switch (kinds[i]) {
      case BOOLEAN -> buffer[slot] = isNull ? 0 : (byte) (row.getBoolean(i) ? 1 : 0);
      case BYTE -> buffer[slot] = isNull ? 0 : row.getByte(i);
      case SHORT -> SHORT_LE.set(buffer, slot, isNull ? 0 : row.getShort(i));
      case INT -> INT_LE.set(buffer, slot, isNull ? 0 : row.getInt(i));
      case LONG -> LONG_LE.set(buffer, slot, isNull ? 0L : row.getLong(i));
        // raw bits, as Paimon writes them: a NaN keeps its payload, so keys hash alike
      case FLOAT -> INT_LE.set(buffer, slot, isNull ? 0 : Float.floatToRawIntBits(row.getFloat(i)));
      case DOUBLE ->
          LONG_LE.set(buffer, slot, isNull ? 0L : Double.doubleToRawLongBits(row.getDouble(i)));
      case COMPACT_DECIMAL -> LONG_LE.set(buffer, slot, isNull ? 0L : compactDecimal(row, i));
      case WIDE_DECIMAL -> {
        return writeWideDecimal(isNull ? null : unscaledBytes(row, i), slot, cursor);
      }
      case COMPACT_TIMESTAMP ->
          LONG_LE.set(buffer, slot, isNull ? 0L : Math.floorDiv(row.getLong(i), 1000L));
      case TIMESTAMP -> {
        return writeTimestamp(isNull, isNull ? 0L : row.getLong(i), slot, cursor);
      }
      case STRING -> {
        return isNull ? cursor : writeString(row.getUTF8String(i), slot, cursor);
      }
      case BINARY -> {
        return isNull ? cursor : writeBytes(row.getBinary(i), slot, cursor);
      }
    }
    return cursor;
  }

  private int writeWideDecimal(byte[] unscaled, int slot, int cursor) {
    // 16 bytes are reserved even for a null, so an update in place would fit
    ensureCapacity(cursor + 16);
    Arrays.fill(buffer, cursor, cursor + 16, (byte) 0);
    int length = 0;
    if (unscaled != null) {
      length = unscaled.length;
      System.arraycopy(unscaled, 0, buffer, cursor, length);
    }
    LONG_LE.set(buffer, slot, ((long) cursor << 32) | length);
    return cursor + 16;
  }

  private int writeTimestamp(boolean isNull, long micros, int slot, int cursor) {
    ensureCapacity(cursor + 8);
    long millis = Math.floorDiv(micros, 1000L);
    int nanoOfMilli = (int) Math.floorMod(micros, 1000L) * 1000;
    LONG_LE.set(buffer, cursor, isNull ? 0L : millis);
    LONG_LE.set(buffer, slot, ((long) cursor << 32) | (isNull ? 0 : nanoOfMilli));
    return cursor + 8;
  }

  private int writeBytes(byte[] value, int slot, int cursor) {
    int length = value.length;
    if (length <= MAX_INLINE_LENGTH) {
      System.arraycopy(value, 0, buffer, slot, length);
      buffer[slot + 7] = (byte) (0x80 | length);
      return cursor;
    }
    int rounded = roundToWord(length);
    ensureCapacity(cursor + rounded);
    System.arraycopy(value, 0, buffer, cursor, length);
    Arrays.fill(buffer, cursor + length, cursor + rounded, (byte) 0);
    LONG_LE.set(buffer, slot, ((long) cursor << 32) | length);
    return cursor + rounded;
  }

  /** As {@link #writeBytes}, copying straight from the string's memory (no byte[] per value). */
  private int writeString(UTF8String value, int slot, int cursor) {
    int length = value.numBytes();
    if (length <= MAX_INLINE_LENGTH) {
      value.writeToMemory(buffer, Platform.BYTE_ARRAY_OFFSET + slot);
      buffer[slot + 7] = (byte) (0x80 | length);
      return cursor;
    }
    int rounded = roundToWord(length);
    ensureCapacity(cursor + rounded);
    value.writeToMemory(buffer, Platform.BYTE_ARRAY_OFFSET + cursor);
    Arrays.fill(buffer, cursor + length, cursor + rounded, (byte) 0);
    LONG_LE.set(buffer, slot, ((long) cursor << 32) | length);
    return cursor + rounded;
  }

  private long compactDecimal(InternalRow row, int i) {
    DecimalType type = (DecimalType) types[i];
    Decimal value = row.getDecimal(i, type.precision(), type.scale());
    if (value.scale() == type.scale() && value.precision() <= type.precision()) {
      return value.toUnscaledLong();
    }
    return rescale(value, type, i).unscaledValue().longValueExact();
  }

  private byte[] unscaledBytes(InternalRow row, int i) {
    DecimalType type = (DecimalType) types[i];
    Decimal value = row.getDecimal(i, type.precision(), type.scale());
    return rescale(value, type, i).unscaledValue().toByteArray();
  }

  private static BigDecimal rescale(Decimal value, DecimalType type, int field) {
    BigDecimal exact;
    try {
      exact = value.toJavaBigDecimal().setScale(type.scale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw decimalMismatch(value, type, field);
    }
    if (exact.precision() > type.precision()) {
      throw decimalMismatch(value, type, field);
    }
    return exact;
  }

  private static IllegalArgumentException decimalMismatch(Decimal v, DecimalType t, int field) {
    return new IllegalArgumentException(
        String.format(
            "Decimal %s of field %s does not fit %s without rounding",
            v.toJavaBigDecimal().toPlainString(), field, t.simpleString()));
  }

  /**
   * Decodes {@code row} into a new {@link GenericInternalRow} holding Spark internal values.
   *
   * @throws IllegalArgumentException if the arity differs from this codec's or an offset points
   *     outside the row bytes
   */
  public InternalRow toRow(BinaryRow row) {
    Check.notNull(row, "row");
    Check.argument(
        row.arity() == kinds.length,
        "BinaryRow has %s fields, expected %s for types %s",
        row.arity(),
        kinds.length,
        Arrays.toString(types));
    byte[] bytes = row.bytes();
    Check.argument(
        bytes.length >= fixedSize,
        "BinaryRow of arity %s has %s bytes, less than its fixed part of %s",
        row.arity(),
        bytes.length,
        fixedSize);
    Object[] values = new Object[kinds.length];
    for (int i = 0; i < kinds.length; i++) {
      values[i] = row.isNullAt(i) ? null : readField(bytes, i);
    }
    return new GenericInternalRow(values);
  }

  private Object readField(byte[] bytes, int i) {
    int slot = nullBitsSize + 8 * i;
    return switch (kinds[i]) {
      case BOOLEAN -> bytes[slot] != 0;
      case BYTE -> bytes[slot];
      case SHORT -> (short) SHORT_LE.get(bytes, slot);
      case INT -> (int) INT_LE.get(bytes, slot);
      case LONG -> (long) LONG_LE.get(bytes, slot);
      case FLOAT -> Float.intBitsToFloat((int) INT_LE.get(bytes, slot));
      case DOUBLE -> Double.longBitsToDouble((long) LONG_LE.get(bytes, slot));
      case COMPACT_DECIMAL -> readCompactDecimal(bytes, slot, (DecimalType) types[i]);
      case WIDE_DECIMAL -> readWideDecimal(bytes, slot, (DecimalType) types[i], i);
      case COMPACT_TIMESTAMP -> (long) LONG_LE.get(bytes, slot) * 1000L;
      case TIMESTAMP -> readTimestamp(bytes, slot, i);
      case STRING -> UTF8String.fromBytes(readBytes(bytes, slot, i));
      case BINARY -> readBytes(bytes, slot, i);
    };
  }

  private static Decimal readCompactDecimal(byte[] bytes, int slot, DecimalType type) {
    return Decimal.apply((long) LONG_LE.get(bytes, slot), type.precision(), type.scale());
  }

  private static Decimal readWideDecimal(byte[] bytes, int slot, DecimalType type, int field) {
    byte[] unscaled = readVarPart(bytes, (long) LONG_LE.get(bytes, slot), field);
    BigDecimal value = new BigDecimal(new BigInteger(unscaled), type.scale());
    return Decimal.apply(value, type.precision(), type.scale());
  }

  private static long readTimestamp(byte[] bytes, int slot, int field) {
    long offsetAndNanos = (long) LONG_LE.get(bytes, slot);
    int offset = (int) (offsetAndNanos >>> 32);
    checkRange(bytes, offset, 8, field);
    long millis = (long) LONG_LE.get(bytes, offset);
    return millis * 1000L + (int) offsetAndNanos / 1000;
  }

  private static byte[] readBytes(byte[] bytes, int slot, int field) {
    long word = (long) LONG_LE.get(bytes, slot);
    if (word < 0) {
      // top bit set: the value sits in the slot itself, its length in bits 56..62
      int length = (int) ((word >>> 56) & 0x7F);
      Check.argument(
          length <= MAX_INLINE_LENGTH,
          "Corrupt BinaryRow: field %s claims %s inline bytes, at most %s fit in a slot",
          field,
          length,
          MAX_INLINE_LENGTH);
      return Arrays.copyOfRange(bytes, slot, slot + length);
    }
    return readVarPart(bytes, word, field);
  }

  private static byte[] readVarPart(byte[] bytes, long offsetAndLength, int field) {
    int offset = (int) (offsetAndLength >>> 32);
    int length = (int) offsetAndLength;
    checkRange(bytes, offset, length, field);
    return Arrays.copyOfRange(bytes, offset, offset + length);
  }

  private static void checkRange(byte[] bytes, int offset, int length, int field) {
    Check.argument(
        offset >= 0 && length >= 0 && (long) offset + length <= bytes.length,
        "Corrupt BinaryRow: field %s points at bytes [%s, %s) outside the row of %s bytes",
        field,
        offset,
        (long) offset + length,
        bytes.length);
  }

  /** The manifest form of {@code row}: its arity as a 4-byte big-endian int, then its bytes. */
  public static byte[] serialize(BinaryRow row) {
    Check.notNull(row, "row");
    byte[] rowBytes = row.bytes();
    byte[] out = new byte[4 + rowBytes.length];
    INT_BE.set(out, 0, row.arity());
    System.arraycopy(rowBytes, 0, out, 4, rowBytes.length);
    return out;
  }

  /**
   * Parses the form written by {@link #serialize}.
   *
   * @throws IllegalArgumentException if the bytes are too short for the arity they declare or the
   *     row length is not a multiple of 8
   */
  public static BinaryRow deserialize(byte[] serialized) {
    Check.notNull(serialized, "serialized");
    Check.argument(
        serialized.length >= 4,
        "Serialized BinaryRow has %s bytes, too short for its 4-byte arity",
        serialized.length);
    int arity = (int) INT_BE.get(serialized, 0);
    int rowLength = serialized.length - 4;
    Check.argument(
        arity >= 0 && rowLength % 8 == 0 && rowLength >= nullBitsSize(arity) + 8L * arity,
        "Invalid serialized BinaryRow: arity %s with %s row bytes",
        arity,
        rowLength);
    return new BinaryRow(arity, Arrays.copyOfRange(serialized, 4, serialized.length));
  }

  private static int roundToWord(int length) {
    return (length + 7) & ~7;
  }

  private void ensureCapacity(int size) {
    if (size > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(size, buffer.length * 2));
    }
  }
}
