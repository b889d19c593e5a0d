package io.basalt.format;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/** Derives per-column {@link ColumnStats} from a Parquet footer by merging row-group statistics. */
final class FooterStats {
  private FooterStats() {}

  static List<ColumnStats> of(ParquetMetadata footer, StructType fileSchema) {
    List<ColumnStats> result = new ArrayList<>(fileSchema.size());
    for (StructField field : fileSchema.fields()) {
      DataType type = field.dataType();
      if (type instanceof StructType
          || type instanceof ArrayType
          || type instanceof MapType
          || ParquetSchemas.writesInt96(field)) {
        // INT96 has no defined order, so Parquet keeps no statistics for it
        result.add(ColumnStats.UNKNOWN);
      } else if (ParquetSchemas.writesMillis(field)) {
        // the file holds millis; stats, like rows in memory, are micros
        ColumnStats millis = primitiveStats(footer.getBlocks(), ColumnPath.get(field.name()), type);
        result.add(new ColumnStats(micros(millis.min()), micros(millis.max()), millis.nullCount()));
      } else {
        result.add(primitiveStats(footer.getBlocks(), ColumnPath.get(field.name()), type));
      }
    }
    return result;
  }

  private static Object micros(Object millis) {
    return millis == null ? null : (Long) millis * 1000L;
  }

  private static ColumnStats primitiveStats(
      List<BlockMetaData> blocks, ColumnPath path, DataType type) {
    Statistics<?> merged = null;
    for (BlockMetaData block : blocks) {
      Statistics<?> stats = chunk(block, path).getStatistics();
      if (stats == null || stats.isEmpty()) {
        return ColumnStats.UNKNOWN;
      }
      if (merged == null) {
        merged = Statistics.createStats(stats.type());
      }
      merged.mergeStatistics(stats);
    }
    if (merged == null) {
      return new ColumnStats(null, null, 0L);
    }
    Long nullCount = merged.isNumNullsSet() ? merged.getNumNulls() : null;
    if (!merged.hasNonNullValue()) {
      return new ColumnStats(null, null, nullCount);
    }
    return new ColumnStats(
        toSpark(merged.genericGetMin(), type), toSpark(merged.genericGetMax(), type), nullCount);
  }

  private static ColumnChunkMetaData chunk(BlockMetaData block, ColumnPath path) {
    for (ColumnChunkMetaData column : block.getColumns()) {
      if (column.getPath().equals(path)) {
        return column;
      }
    }
    throw new IllegalStateException("Parquet footer has no column chunk " + path);
  }

  /** Converts a physical Parquet statistic back to the Spark internal value of {@code type}. */
  static Object toSpark(Object value, DataType type) {
    if (type instanceof ByteType) {
      return (byte) (int) (Integer) value;
    } else if (type instanceof ShortType) {
      return (short) (int) (Integer) value;
    } else if (type instanceof DecimalType decimal) {
      return decimal(value, decimal);
    } else if (type instanceof BinaryType) {
      return ((Binary) value).getBytes().clone();
    } else if (value instanceof Binary binary) {
      return UTF8String.fromBytes(binary.getBytes().clone());
    }
    // booleans, ints, dates, longs, timestamps, floats and doubles are stored as is
    return value;
  }

  private static Decimal decimal(Object value, DecimalType type) {
    if (value instanceof Integer i) {
      return Decimal.createUnsafe(i, type.precision(), type.scale());
    } else if (value instanceof Long l) {
      return Decimal.createUnsafe(l, type.precision(), type.scale());
    }
    BigInteger unscaled = new BigInteger(((Binary) value).getBytes());
    return Decimal.apply(new BigDecimal(unscaled, type.scale()), type.precision(), type.scale());
  }
}
