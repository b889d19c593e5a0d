package io.basalt.casting;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VarcharType;

/**
 * Paimon's rules for which column type may become which by {@code ALTER COLUMN ... TYPE}, stated on
 * Spark types. An <em>implicit</em> cast never loses information (INT to BIGINT, any number to
 * DOUBLE, TIMESTAMP to TIMESTAMP_LTZ); an <em>explicit</em> one may (DOUBLE to INT truncates,
 * STRING to INT parses), and a table refuses those when {@code disable-explicit-type-casting} is
 * set. Types are compared by kind only: two DECIMALs or two STRUCTs are always castable here, and
 * {@link ValueCasts} decides whether values can actually be converted.
 */
public final class TypeCasts {
  /** Paimon's type roots that Spark types map to. */
  enum Root {
    CHAR_STRING,
    BOOLEAN,
    BINARY,
    DECIMAL,
    TINYINT,
    SMALLINT,
    INTEGER,
    BIGINT,
    FLOAT,
    DOUBLE,
    DATE,
    TIMESTAMP,
    TIMESTAMP_LTZ,
    ARRAY,
    MAP,
    ROW,
    OTHER
  }

  private static final Set<Root> INTEGERS =
      EnumSet.of(Root.TINYINT, Root.SMALLINT, Root.INTEGER, Root.BIGINT);
  private static final Set<Root> NUMERIC =
      EnumSet.of(
          Root.TINYINT,
          Root.SMALLINT,
          Root.INTEGER,
          Root.BIGINT,
          Root.DECIMAL,
          Root.FLOAT,
          Root.DOUBLE);
  private static final Set<Root> TIMESTAMPS = EnumSet.of(Root.TIMESTAMP, Root.TIMESTAMP_LTZ);

  private static final Map<Root, Set<Root>> IMPLICIT = new EnumMap<>(Root.class);
  private static final Map<Root, Set<Root>> EXPLICIT = new EnumMap<>(Root.class);

  static {
    Set<Root> allButOther = EnumSet.complementOf(EnumSet.of(Root.OTHER));
    Set<Root> string = EnumSet.of(Root.CHAR_STRING);
    Set<Root> numericExplicit = union(NUMERIC, string, EnumSet.of(Root.BOOLEAN), TIMESTAMPS);

    rule(Root.CHAR_STRING, string, allButOther);
    rule(Root.BOOLEAN, EnumSet.noneOf(Root.class), union(string, INTEGERS));
    rule(Root.BINARY, EnumSet.noneOf(Root.class), string);
    rule(Root.DECIMAL, NUMERIC, union(string, EnumSet.of(Root.BOOLEAN), TIMESTAMPS));
    rule(Root.TINYINT, EnumSet.noneOf(Root.class), numericExplicit);
    rule(Root.SMALLINT, EnumSet.of(Root.TINYINT), numericExplicit);
    rule(Root.INTEGER, EnumSet.of(Root.TINYINT, Root.SMALLINT), numericExplicit);
    rule(Root.BIGINT, EnumSet.of(Root.TINYINT, Root.SMALLINT, Root.INTEGER), numericExplicit);
    rule(Root.FLOAT, union(INTEGERS, EnumSet.of(Root.DECIMAL)), numericExplicit);
    rule(Root.DOUBLE, NUMERIC, union(string, EnumSet.of(Root.BOOLEAN), TIMESTAMPS));
    rule(Root.DATE, EnumSet.of(Root.TIMESTAMP), union(TIMESTAMPS, string));
    Set<Root> timestampExplicit = union(EnumSet.of(Root.DATE), TIMESTAMPS, string, NUMERIC);
    rule(Root.TIMESTAMP, TIMESTAMPS, timestampExplicit);
    rule(Root.TIMESTAMP_LTZ, TIMESTAMPS, timestampExplicit);
    for (Root root : Root.values()) {
      IMPLICIT.computeIfAbsent(root, r -> EnumSet.noneOf(Root.class)).add(root);
      EXPLICIT.computeIfAbsent(root, r -> EnumSet.noneOf(Root.class));
    }
  }

  private TypeCasts() {}

  /**
   * Whether a column of type {@code from} may become {@code to} under Paimon's rules.
   *
   * @param allowExplicit whether casts that may lose information count (the default; a table with
   *     {@code disable-explicit-type-casting = true} allows only implicit ones)
   */
  public static boolean supportsCast(DataType from, DataType to, boolean allowExplicit) {
    if (from.equals(to)) {
      return true;
    }
    Root source = root(from);
    Root target = root(to);
    if (source == Root.OTHER || target == Root.OTHER) {
      return false;
    }
    return IMPLICIT.get(target).contains(source)
        || (allowExplicit && EXPLICIT.get(target).contains(source));
  }

  /** Whether the cast is implicit: every old value has an exact new value. */
  public static boolean isImplicit(DataType from, DataType to) {
    return supportsCast(from, to, false);
  }

  static Root root(DataType type) {
    if (type instanceof StringType || type instanceof CharType || type instanceof VarcharType) {
      return Root.CHAR_STRING;
    }
    Root atomic = atomicRoot(type);
    if (atomic != null) {
      return atomic;
    }
    if (type instanceof ArrayType) {
      return Root.ARRAY;
    } else if (type instanceof MapType) {
      return Root.MAP;
    } else if (type instanceof StructType) {
      return Root.ROW;
    }
    return Root.OTHER;
  }

  @Nullable
  private static Root atomicRoot(DataType type) {
    if (type instanceof BooleanType) {
      return Root.BOOLEAN;
    } else if (type instanceof BinaryType) {
      return Root.BINARY;
    } else if (type instanceof DecimalType) {
      return Root.DECIMAL;
    } else if (type instanceof ByteType) {
      return Root.TINYINT;
    } else if (type instanceof ShortType) {
      return Root.SMALLINT;
    } else if (type instanceof IntegerType) {
      return Root.INTEGER;
    } else if (type instanceof LongType) {
      return Root.BIGINT;
    } else if (type instanceof FloatType) {
      return Root.FLOAT;
    } else if (type instanceof DoubleType) {
      return Root.DOUBLE;
    } else if (type instanceof DateType) {
      return Root.DATE;
    } else if (type instanceof TimestampNTZType) {
      return Root.TIMESTAMP;
    } else if (type instanceof TimestampType) {
      return Root.TIMESTAMP_LTZ;
    }
    return null;
  }

  private static void rule(Root target, Set<Root> implicit, Set<Root> explicit) {
    IMPLICIT.put(target, EnumSet.copyOf(union(implicit, EnumSet.of(target))));
    EXPLICIT.put(target, EnumSet.copyOf(union(explicit, EnumSet.of(target))));
  }

  @SafeVarargs
  private static Set<Root> union(Set<Root>... sets) {
    Set<Root> result = EnumSet.noneOf(Root.class);
    for (Set<Root> set : sets) {
      result.addAll(set);
    }
    return result;
  }
}
