package io.basalt.mergetree;

import io.basalt.data.RowComparator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The current key of each sorted run of a merge, held in the cheapest form for its type: a single
 * BIGINT/TIMESTAMP or INT/DATE key as a primitive read once per row (so a comparison touches no row
 * object), a single STRING key as the row's own {@link UTF8String}, any other key as the row
 * compared field by field. Keys are never null, so no null checks are made.
 *
 * <p>A loaded key stays valid as long as the row it was read from (the run's reuse contract).
 */
public abstract class RunKeys {
  /** Per-run key slots for keys of {@code keyTypes} (the leading columns of key-value rows). */
  public static RunKeys of(List<DataType> keyTypes, int runs) {
    if (keyTypes.size() == 1) {
      DataType type = keyTypes.get(0);
      if (type instanceof LongType
          || type instanceof TimestampType
          || type instanceof TimestampNTZType) {
        return new LongKeys(runs);
      }
      if (type instanceof IntegerType || type instanceof DateType) {
        return new IntKeys(runs);
      }
      if (type instanceof StringType) {
        return new StringKeys(runs);
      }
    }
    return new RowKeys(new RowComparator(keyTypes), runs);
  }

  /** Reads the key of {@code row}, the current row of {@code run}. */
  public abstract void load(int run, InternalRow row);

  /** Compares the current keys of two runs. */
  public abstract int compare(int a, int b);

  private static final class LongKeys extends RunKeys {
    private final long[] keys;

    LongKeys(int runs) {
      this.keys = new long[runs];
    }

    @Override
    public void load(int run, InternalRow row) {
      keys[run] = row.getLong(0);
    }

    @Override
    public int compare(int a, int b) {
      return Long.compare(keys[a], keys[b]);
    }
  }

  private static final class IntKeys extends RunKeys {
    private final int[] keys;

    IntKeys(int runs) {
      this.keys = new int[runs];
    }

    @Override
    public void load(int run, InternalRow row) {
      keys[run] = row.getInt(0);
    }

    @Override
    public int compare(int a, int b) {
      return Integer.compare(keys[a], keys[b]);
    }
  }

  private static final class StringKeys extends RunKeys {
    private final UTF8String[] keys;

    StringKeys(int runs) {
      this.keys = new UTF8String[runs];
    }

    @Override
    public void load(int run, InternalRow row) {
      keys[run] = row.getUTF8String(0);
    }

    @Override
    public int compare(int a, int b) {
      return keys[a].binaryCompare(keys[b]);
    }
  }

  /** Any other key: compared on the rows, field by field. */
  private static final class RowKeys extends RunKeys {
    private final RowComparator order;
    private final InternalRow[] rows;

    RowKeys(RowComparator order, int runs) {
      this.order = order;
      this.rows = new InternalRow[runs];
    }

    @Override
    public void load(int run, InternalRow row) {
      rows[run] = row;
    }

    @Override
    public int compare(int a, int b) {
      return order.compare(rows[a], rows[b]);
    }
  }
}
