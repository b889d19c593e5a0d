package io.basalt.blob;

import java.math.BigInteger;
import java.util.Optional;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The byte form of the keys of a MAP&lt;K, BINARY&gt; BLOB column inside its {@code .blob} record,
 * as Paimon's map element serializer writes them: integers little-endian in their own width
 * (TINYINT 1, SMALLINT 2, INT and DATE 4, BIGINT 8 bytes), BOOLEAN one byte 0 or 1, DECIMAL of
 * precision up to 18 its unscaled value as 8 bytes little-endian and wider ones as the big-endian
 * two's complement of the unscaled value, STRING its UTF-8 bytes, BINARY itself.
 */
abstract class BlobMapKeys {
  /** The codec of keys of {@code type}, or empty when Paimon stores no map with such keys. */
  static Optional<BlobMapKeys> of(DataType type) {
    if (type instanceof ByteType) {
      return Optional.of(new Fixed(1));
    } else if (type instanceof ShortType) {
      return Optional.of(new Fixed(2));
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return Optional.of(new Fixed(4));
    } else if (type instanceof LongType) {
      return Optional.of(new Fixed(8));
    } else if (type instanceof BooleanType) {
      return Optional.of(new Bool());
    } else if (type instanceof DecimalType decimal) {
      return Optional.of(new Dec(decimal));
    } else if (type instanceof StringType) {
      return Optional.of(new Str());
    } else if (type instanceof BinaryType) {
      return Optional.of(new Bin());
    }
    return Optional.empty();
  }

  /** The bytes of key {@code key} (a value as Spark's {@code ArrayData.get} returns it). */
  abstract byte[] encode(Object key);

  /**
   * The key of {@code bytes}, as Spark's row model holds it.
   *
   * @throws IllegalArgumentException when the bytes cannot be such a key
   */
  abstract Object decode(byte[] bytes);

  private static final class Fixed extends BlobMapKeys {
    private final int width;

    Fixed(int width) {
      this.width = width;
    }

    @Override
    byte[] encode(Object key) {
      long value = ((Number) key).longValue();
      byte[] out = new byte[width];
      for (int i = 0; i < width; i++) {
        out[i] = (byte) (value >>> (8 * i));
      }
      return out;
    }

    @Override
    Object decode(byte[] bytes) {
      if (bytes.length != width) {
        throw new IllegalArgumentException(
            "a map key has " + bytes.length + " bytes, not " + width);
      }
      long value = 0;
      for (int i = 0; i < width; i++) {
        value |= (long) (bytes[i] & 0xFF) << (8 * i);
      }
      return switch (width) {
        case 1 -> (byte) value;
        case 2 -> (short) value;
        case 4 -> (int) value;
        default -> value;
      };
    }
  }

  private static final class Bool extends BlobMapKeys {
    @Override
    byte[] encode(Object key) {
      return new byte[] {(byte) ((Boolean) key ? 1 : 0)};
    }

    @Override
    Object decode(byte[] bytes) {
      if (bytes.length != 1 || (bytes[0] != 0 && bytes[0] != 1)) {
        throw new IllegalArgumentException("a BOOLEAN map key is not one byte 0 or 1");
      }
      return bytes[0] == 1;
    }
  }

  private static final class Dec extends BlobMapKeys {
    private final DecimalType type;
    private final Fixed compact = new Fixed(8);

    Dec(DecimalType type) {
      this.type = type;
    }

    private boolean compact() {
      return type.precision() <= 18;
    }

    @Override
    byte[] encode(Object key) {
      Decimal decimal = ((Decimal) key).clone();
      decimal.changePrecision(type.precision(), type.scale());
      if (compact()) {
        return compact.encode(decimal.toUnscaledLong());
      }
      return decimal.toJavaBigDecimal().unscaledValue().toByteArray();
    }

    @Override
    Object decode(byte[] bytes) {
      if (compact()) {
        return Decimal.createUnsafe((Long) compact.decode(bytes), type.precision(), type.scale());
      }
      if (bytes.length == 0) {
        throw new IllegalArgumentException("a DECIMAL map key has no bytes");
      }
      Decimal decimal =
          Decimal.apply(new java.math.BigDecimal(new BigInteger(bytes), type.scale()));
      if (!decimal.changePrecision(type.precision(), type.scale())) {
        throw new IllegalArgumentException(
            "a DECIMAL map key exceeds precision " + type.precision());
      }
      return decimal;
    }
  }

  private static final class Str extends BlobMapKeys {
    @Override
    byte[] encode(Object key) {
      return ((UTF8String) key).getBytes();
    }

    @Override
    Object decode(byte[] bytes) {
      return UTF8String.fromBytes(bytes);
    }
  }

  private static final class Bin extends BlobMapKeys {
    @Override
    byte[] encode(Object key) {
      return (byte[]) key;
    }

    @Override
    Object decode(byte[] bytes) {
      return bytes;
    }
  }
}
