package io.basalt.merge.aggregate;

import java.io.Serializable;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;

/**
 * Arithmetic on the internal values of one numeric column type, chosen once per column. Integral
 * types wrap on overflow like Java (and Paimon); DECIMAL results keep the column's precision and
 * scale (HALF_UP) and become null when they no longer fit, as Paimon's decimal arithmetic does.
 */
abstract class Arithmetic implements Serializable {
  private static final long serialVersionUID = 1L;

  abstract Object add(Object a, Object b);

  abstract Object subtract(Object a, Object b);

  abstract Object multiply(Object a, Object b);

  /** {@code a / b}, or null when {@code b} is zero: there is no value to recover. */
  @Nullable
  abstract Object divide(Object a, Object b);

  @Nullable
  abstract Object negate(Object a);

  static Arithmetic of(DataType type) {
    if (type instanceof DecimalType d) {
      return new DecimalArithmetic(d.precision(), d.scale());
    } else if (type instanceof ByteType) {
      return new ByteArithmetic();
    } else if (type instanceof ShortType) {
      return new ShortArithmetic();
    } else if (type instanceof IntegerType) {
      return new IntArithmetic();
    } else if (type instanceof LongType) {
      return new LongArithmetic();
    } else if (type instanceof FloatType) {
      return new FloatArithmetic();
    } else if (type instanceof DoubleType) {
      return new DoubleArithmetic();
    }
    throw new IllegalArgumentException("Not a numeric type: " + type.sql());
  }

  private static final class DecimalArithmetic extends Arithmetic {
    private final int precision;
    private final int scale;

    DecimalArithmetic(int precision, int scale) {
      this.precision = precision;
      this.scale = scale;
    }

    @Nullable
    private Decimal fit(@Nullable Decimal value) {
      return value != null && value.changePrecision(precision, scale) ? value : null;
    }

    @Override
    Object add(Object a, Object b) {
      return fit(((Decimal) a).$plus((Decimal) b));
    }

    @Override
    Object subtract(Object a, Object b) {
      return fit(((Decimal) a).$minus((Decimal) b));
    }

    @Override
    Object multiply(Object a, Object b) {
      return fit(((Decimal) a).$times((Decimal) b));
    }

    @Override
    Object divide(Object a, Object b) {
      // Spark's Decimal division returns null for a zero divisor.
      return fit(((Decimal) a).$div((Decimal) b));
    }

    @Override
    Object negate(Object a) {
      return fit(((Decimal) a).unary_$minus());
    }
  }

  private static final class ByteArithmetic extends Arithmetic {
    @Override
    Object add(Object a, Object b) {
      return (byte) ((Byte) a + (Byte) b);
    }

    @Override
    Object subtract(Object a, Object b) {
      return (byte) ((Byte) a - (Byte) b);
    }

    @Override
    Object multiply(Object a, Object b) {
      return (byte) ((Byte) a * (Byte) b);
    }

    @Override
    Object divide(Object a, Object b) {
      return (Byte) b == 0 ? null : (byte) ((Byte) a / (Byte) b);
    }

    @Override
    Object negate(Object a) {
      return (byte) -(Byte) a;
    }
  }

  private static final class ShortArithmetic extends Arithmetic {
    @Override
    Object add(Object a, Object b) {
      return (short) ((Short) a + (Short) b);
    }

    @Override
    Object subtract(Object a, Object b) {
      return (short) ((Short) a - (Short) b);
    }

    @Override
    Object multiply(Object a, Object b) {
      return (short) ((Short) a * (Short) b);
    }

    @Override
    Object divide(Object a, Object b) {
      return (Short) b == 0 ? null : (short) ((Short) a / (Short) b);
    }

    @Override
    Object negate(Object a) {
      return (short) -(Short) a;
    }
  }

  private static final class IntArithmetic extends Arithmetic {
    @Override
    Object add(Object a, Object b) {
      return (Integer) a + (Integer) b;
    }

    @Override
    Object subtract(Object a, Object b) {
      return (Integer) a - (Integer) b;
    }

    @Override
    Object multiply(Object a, Object b) {
      return (Integer) a * (Integer) b;
    }

    @Override
    Object divide(Object a, Object b) {
      return (Integer) b == 0 ? null : (Integer) a / (Integer) b;
    }

    @Override
    Object negate(Object a) {
      return -(Integer) a;
    }
  }

  private static final class LongArithmetic extends Arithmetic {
    @Override
    Object add(Object a, Object b) {
      return (Long) a + (Long) b;
    }

    @Override
    Object subtract(Object a, Object b) {
      return (Long) a - (Long) b;
    }

    @Override
    Object multiply(Object a, Object b) {
      return (Long) a * (Long) b;
    }

    @Override
    Object divide(Object a, Object b) {
      return (Long) b == 0L ? null : (Long) a / (Long) b;
    }

    @Override
    Object negate(Object a) {
      return -(Long) a;
    }
  }

  private static final class FloatArithmetic extends Arithmetic {
    @Override
    Object add(Object a, Object b) {
      return (Float) a + (Float) b;
    }

    @Override
    Object subtract(Object a, Object b) {
      return (Float) a - (Float) b;
    }

    @Override
    Object multiply(Object a, Object b) {
      return (Float) a * (Float) b;
    }

    @Override
    Object divide(Object a, Object b) {
      return (Float) b == 0f ? null : (Float) a / (Float) b;
    }

    @Override
    Object negate(Object a) {
      return -(Float) a;
    }
  }

  private static final class DoubleArithmetic extends Arithmetic {
    @Override
    Object add(Object a, Object b) {
      return (Double) a + (Double) b;
    }

    @Override
    Object subtract(Object a, Object b) {
      return (Double) a - (Double) b;
    }

    @Override
    Object multiply(Object a, Object b) {
      return (Double) a * (Double) b;
    }

    @Override
    Object divide(Object a, Object b) {
      return (Double) b == 0d ? null : (Double) a / (Double) b;
    }

    @Override
    Object negate(Object a) {
      return -(Double) a;
    }
  }
}
