package io.basalt.format;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Converters from Parquet primitive columns to Spark internal values. Strings and binaries are
 * copied out of Parquet's buffers; dictionary-encoded strings are decoded once per dictionary.
 */
final class PrimitiveConverters {
  private static final long MICROS_PER_DAY = 86_400_000_000L;
  private static final int JULIAN_EPOCH_DAY = 2_440_588;

  private PrimitiveConverters() {}

  /**
   * A converter of {@code file} into {@code read}, or null when the two do not match. Besides exact
   * matches it up-casts the widenings a schema change allows (integers to wider integers, FLOAT to
   * DOUBLE, a DECIMAL to a larger precision of the same scale).
   */
  static PrimitiveConverter create(PrimitiveType file, DataType read, Slot slot) {
    PrimitiveTypeName physical = file.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = file.getLogicalTypeAnnotation();
    if (read instanceof BooleanType && physical == PrimitiveTypeName.BOOLEAN) {
      return new PrimitiveConverter() {
        @Override
        public void addBoolean(boolean value) {
          slot.setBoolean(value);
        }
      };
    } else if (physical == PrimitiveTypeName.INT32
        && !(logical instanceof DecimalLogicalTypeAnnotation)) {
      return int32(read, slot);
    } else if (physical == PrimitiveTypeName.INT64
        && !(logical instanceof DecimalLogicalTypeAnnotation)) {
      return int64(read, logical, slot);
    } else if (physical == PrimitiveTypeName.INT96 && isTimestamp(read)) {
      return int96(slot);
    } else if (read instanceof FloatType && physical == PrimitiveTypeName.FLOAT) {
      return new PrimitiveConverter() {
        @Override
        public void addFloat(float value) {
          slot.setFloat(value);
        }
      };
    } else if (read instanceof DoubleType && physical == PrimitiveTypeName.FLOAT) {
      // a FLOAT column widened to DOUBLE after the file was written
      return new PrimitiveConverter() {
        @Override
        public void addFloat(float value) {
          slot.setDouble(value);
        }
      };
    } else if (read instanceof DoubleType && physical == PrimitiveTypeName.DOUBLE) {
      return new PrimitiveConverter() {
        @Override
        public void addDouble(double value) {
          slot.setDouble(value);
        }
      };
    } else if (read instanceof DecimalType decimal
        && logical instanceof DecimalLogicalTypeAnnotation d) {
      return d.getScale() == decimal.scale() ? decimal(decimal, slot) : null;
    } else if (isString(read) && physical == PrimitiveTypeName.BINARY) {
      return new StringConverter(slot);
    } else if (read instanceof BinaryType
        && (physical == PrimitiveTypeName.BINARY
            || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)) {
      return new PrimitiveConverter() {
        @Override
        public void addBinary(Binary value) {
          slot.set(copy(value));
        }
      };
    }
    return null;
  }

  private static PrimitiveConverter int32(DataType read, Slot slot) {
    if (read instanceof ByteType) {
      return new PrimitiveConverter() {
        @Override
        public void addInt(int value) {
          slot.setByte((byte) value);
        }
      };
    } else if (read instanceof ShortType) {
      return new PrimitiveConverter() {
        @Override
        public void addInt(int value) {
          slot.setShort((short) value);
        }
      };
    } else if (read instanceof IntegerType || read instanceof DateType) {
      return new PrimitiveConverter() {
        @Override
        public void addInt(int value) {
          slot.setInt(value);
        }
      };
    } else if (read instanceof LongType) {
      // a narrower integer column widened to BIGINT after the file was written
      return new PrimitiveConverter() {
        @Override
        public void addInt(int value) {
          slot.setLong(value);
        }
      };
    }
    return null;
  }

  private static PrimitiveConverter int64(DataType read, LogicalTypeAnnotation logical, Slot slot) {
    long divisor = 1;
    long multiplier = 1;
    if (isTimestamp(read) && logical instanceof TimestampLogicalTypeAnnotation ts) {
      switch (ts.getUnit()) {
        case MILLIS -> multiplier = 1000;
        case NANOS -> divisor = 1000;
        default -> {}
      }
    } else if (!(read instanceof LongType)
        || (logical != null
            && !(logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation))) {
      return null;
    }
    long mul = multiplier;
    long div = divisor;
    return new PrimitiveConverter() {
      @Override
      public void addLong(long value) {
        slot.setLong(div == 1 ? value * mul : Math.floorDiv(value, div));
      }
    };
  }

  /** Legacy INT96 timestamps: 8 bytes LE nanos of day, then 4 bytes LE Julian day. */
  private static PrimitiveConverter int96(Slot slot) {
    return new PrimitiveConverter() {
      @Override
      public void addBinary(Binary value) {
        ByteBuffer buffer = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        long nanosOfDay = buffer.getLong();
        int julianDay = buffer.getInt();
        // Paimon writes a time before the epoch as a negative time of day: round it down too
        slot.setLong(
            (julianDay - JULIAN_EPOCH_DAY) * MICROS_PER_DAY + Math.floorDiv(nanosOfDay, 1000L));
      }
    };
  }

  private static PrimitiveConverter decimal(DecimalType type, Slot slot) {
    int precision = type.precision();
    int scale = type.scale();
    return new PrimitiveConverter() {
      @Override
      public void addInt(int value) {
        slot.set(Decimal.createUnsafe(value, precision, scale));
      }

      @Override
      public void addLong(long value) {
        slot.set(Decimal.createUnsafe(value, precision, scale));
      }

      @Override
      public void addBinary(Binary value) {
        BigInteger unscaled = new BigInteger(value.getBytesUnsafe());
        slot.set(Decimal.apply(new BigDecimal(unscaled, scale), precision, scale));
      }
    };
  }

  private static boolean isTimestamp(DataType type) {
    return type instanceof TimestampType || type instanceof TimestampNTZType;
  }

  private static boolean isString(DataType type) {
    return type instanceof StringType || type instanceof VarcharType || type instanceof CharType;
  }

  /** A fresh array holding {@code value}'s bytes, never Parquet's own buffer. */
  static byte[] copy(Binary value) {
    byte[] bytes = new byte[value.length()];
    value.toByteBuffer().get(bytes);
    return bytes;
  }

  /** Strings; a dictionary page is decoded once and its values shared by the rows using them. */
  private static final class StringConverter extends PrimitiveConverter {
    private final Slot slot;
    private UTF8String[] dictionary;

    StringConverter(Slot slot) {
      this.slot = slot;
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary newDictionary) {
      dictionary = new UTF8String[newDictionary.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = UTF8String.fromBytes(copy(newDictionary.decodeToBinary(id)));
      }
    }

    @Override
    public void addValueFromDictionary(int dictionaryId) {
      slot.set(dictionary[dictionaryId]);
    }

    @Override
    public void addBinary(Binary value) {
      slot.set(UTF8String.fromBytes(copy(value)));
    }
  }
}
