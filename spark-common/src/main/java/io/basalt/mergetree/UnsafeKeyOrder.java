package io.basalt.mergetree;

import io.basalt.data.RowComparator;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.unsafe.Platform;

/**
 * The key order of key-value rows as {@link RowComparator} defines it, read straight from UnsafeRow
 * bytes: integers as numbers, strings and binaries as unsigned bytes, without a UTF8String or array
 * per comparison. Also gives each row a 64-bit prefix of its first key column that orders rows the
 * same way where prefixes differ, so a sort compares most pairs on two longs. Key columns are never
 * null (the write rejects null keys), so nulls are not handled.
 */
final class UnsafeKeyOrder {
  private enum Kind {
    LONG,
    INT,
    SHORT,
    BYTE,
    BYTES,
    OTHER
  }

  private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

  private final Kind[] kinds;
  private final RowComparator[] others;
  private final boolean prefixIsKey;

  UnsafeKeyOrder(List<DataType> keyTypes) {
    this.kinds = new Kind[keyTypes.size()];
    this.others = new RowComparator[kinds.length];
    for (int i = 0; i < kinds.length; i++) {
      kinds[i] = kindOf(keyTypes.get(i));
      if (kinds[i] == Kind.OTHER) {
        others[i] = new RowComparator(List.of(keyTypes.get(i)), i);
      }
    }
    // one integral key column: equal prefixes are equal keys
    this.prefixIsKey = kinds.length == 1 && kinds[0] != Kind.BYTES && kinds[0] != Kind.OTHER;
  }

  private static Kind kindOf(DataType type) {
    if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType) {
      return Kind.LONG;
    }
    if (type instanceof IntegerType || type instanceof DateType) {
      return Kind.INT;
    }
    if (type instanceof ShortType) {
      return Kind.SHORT;
    }
    if (type instanceof ByteType) {
      return Kind.BYTE;
    }
    if (type instanceof StringType
        || type instanceof CharType
        || type instanceof VarcharType
        || type instanceof BinaryType) {
      return Kind.BYTES;
    }
    return Kind.OTHER;
  }

  /** Whether rows with equal prefixes always have equal keys. */
  boolean prefixIsKey() {
    return prefixIsKey;
  }

  /**
   * The prefix of {@code row}'s key: compared unsigned, a smaller prefix means a smaller key; equal
   * prefixes say nothing unless {@link #prefixIsKey()}.
   */
  long prefix(UnsafeRow row) {
    if (kinds.length == 0) {
      return 0;
    }
    return switch (kinds[0]) {
        // flipping the sign bit makes the unsigned order the signed one
      case LONG -> row.getLong(0) ^ Long.MIN_VALUE;
      case INT -> row.getInt(0) ^ Long.MIN_VALUE;
      case SHORT -> row.getShort(0) ^ Long.MIN_VALUE;
      case BYTE -> row.getByte(0) ^ Long.MIN_VALUE;
      case BYTES -> bytesPrefix(row, 0);
      case OTHER -> 0;
    };
  }

  /**
   * The first 8 bytes, big-endian and zero-padded: a shorter string that is a prefix sorts first.
   */
  private static long bytesPrefix(UnsafeRow row, int ordinal) {
    long offsetAndSize = row.getLong(ordinal);
    int size = (int) offsetAndSize;
    long address = row.getBaseOffset() + (offsetAndSize >>> 32);
    Object base = row.getBaseObject();
    long prefix = 0;
    for (int i = 0; i < 8; i++) {
      prefix <<= 8;
      if (i < size) {
        prefix |= Platform.getByte(base, address + i) & 0xFF;
      }
    }
    return prefix;
  }

  /** Compares the keys of two key-value rows. */
  int compare(UnsafeRow a, UnsafeRow b) {
    for (int i = 0; i < kinds.length; i++) {
      int c =
          switch (kinds[i]) {
            case LONG -> Long.compare(a.getLong(i), b.getLong(i));
            case INT -> Integer.compare(a.getInt(i), b.getInt(i));
            case SHORT -> Short.compare(a.getShort(i), b.getShort(i));
            case BYTE -> Byte.compare(a.getByte(i), b.getByte(i));
            case BYTES -> compareBytes(a, b, i);
            case OTHER -> others[i].compare(a, b);
          };
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** Unsigned lexicographic order, then length: UTF8String's binary order. */
  private static int compareBytes(UnsafeRow a, UnsafeRow b, int ordinal) {
    long aField = a.getLong(ordinal);
    long bField = b.getLong(ordinal);
    int aSize = (int) aField;
    int bSize = (int) bField;
    Object aBase = a.getBaseObject();
    Object bBase = b.getBaseObject();
    long aAddress = a.getBaseOffset() + (aField >>> 32);
    long bAddress = b.getBaseOffset() + (bField >>> 32);
    int common = Math.min(aSize, bSize);
    int i = 0;
    for (; i + 8 <= common; i += 8) {
      long x = Platform.getLong(aBase, aAddress + i);
      long y = Platform.getLong(bBase, bAddress + i);
      if (x != y) {
        // big-endian words compare unsigned in byte order
        return LITTLE_ENDIAN
            ? Long.compareUnsigned(Long.reverseBytes(x), Long.reverseBytes(y))
            : Long.compareUnsigned(x, y);
      }
    }
    for (; i < common; i++) {
      int x = Platform.getByte(aBase, aAddress + i) & 0xFF;
      int y = Platform.getByte(bBase, bAddress + i) & 0xFF;
      if (x != y) {
        return x - y;
      }
    }
    return aSize - bSize;
  }
}
