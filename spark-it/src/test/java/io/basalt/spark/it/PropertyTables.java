package io.basalt.spark.it;

import io.basalt.data.RowKind;
import io.basalt.fs.FileIO;
import io.basalt.operation.write.TableWrite;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;
import scala.Function1;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The table of the property tests (every column type a primary-key table takes, nested ones
 * included), its random rows, the rows rendered as comparable strings, and writes of rows of any
 * kind straight through the engine's {@link TableWrite}, one commit per round.
 */
final class PropertyTables {
  static final String COLUMNS =
      "p STRING, k INT, s BIGINT, i INT, l BIGINT, d9 DECIMAL(9,2), d38 DECIMAL(38,10),"
          + " str STRING, bin BINARY, dt DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, dbl DOUBLE,"
          + " b BOOLEAN, arr ARRAY<INT>, m MAP<STRING, INT>,"
          + " st STRUCT<x: INT, y: STRING, z: ARRAY<STRUCT<q: BIGINT>>>, f FLOAT, sh SMALLINT,"
          + " ty TINYINT";

  static final List<String> NAMES =
      List.of(
          "p", "k", "s", "i", "l", "d9", "d38", "str", "bin", "dt", "ts", "ntz", "dbl", "b", "arr",
          "m", "st", "f", "sh", "ty");

  static final int P = 0;
  static final int K = 1;
  static final int S = 2;
  static final int I = 3;
  static final int L = 4;
  static final int D9 = 5;
  static final int D38 = 6;
  static final int STR = 7;
  static final int DBL = 12;

  /** The column the schema evolution adds, after the others. */
  static final int EXTRA = 20;

  private PropertyTables() {}

  /** A random value of column {@code column}; {@code widened}: {@code i} is a BIGINT. */
  static Object value(int column, Random rnd, boolean widened) {
    return switch (column) {
      case I -> widened ? (Object) (long) (rnd.nextInt(2001) - 1000) : rnd.nextInt(2001) - 1000;
      case L -> rnd.nextLong() / 4;
      case D9 -> BigDecimal.valueOf(rnd.nextInt(19_999_999) - 9_999_999L, 2);
      case D38 -> new BigDecimal(new BigInteger(96, rnd), 10).multiply(sign(rnd));
      case STR -> string(rnd);
      case 8 -> bytes(rnd);
      case 9 -> LocalDate.ofEpochDay(rnd.nextInt(50_000) - 20_000);
      case 10 -> Instant.ofEpochSecond(rnd.nextInt() * 2L, rnd.nextInt(1_000_000) * 1000L);
      case 11 ->
          LocalDateTime.ofEpochSecond(
              rnd.nextInt() * 3L, rnd.nextInt(1_000_000) * 1000, ZoneOffset.UTC);
      case DBL -> rnd.nextInt(20) == 0 ? -0.0d : rnd.nextGaussian() * 1e6;
      case 13 -> rnd.nextBoolean();
      case 14 -> ints(rnd);
      case 15 -> map(rnd);
      case 16 -> struct(rnd);
      case 17 -> rnd.nextInt(10) == 0 ? Float.NaN : (float) rnd.nextGaussian();
      case 18 -> (short) rnd.nextInt();
      case 19 -> (byte) rnd.nextInt();
      case EXTRA -> rnd.nextInt(100);
      default -> throw new IllegalArgumentException("No random values for column " + column);
    };
  }

  private static BigDecimal sign(Random rnd) {
    return rnd.nextBoolean() ? BigDecimal.ONE : BigDecimal.ONE.negate();
  }

  private static String string(Random rnd) {
    String alphabet = "abcxyzé字 0";
    int length = rnd.nextInt(13);
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  private static byte[] bytes(Random rnd) {
    byte[] bytes = new byte[rnd.nextInt(9)];
    rnd.nextBytes(bytes);
    return bytes;
  }

  private static List<Integer> ints(Random rnd) {
    List<Integer> list = new ArrayList<>();
    int length = rnd.nextInt(5);
    for (int i = 0; i < length; i++) {
      list.add(rnd.nextInt(6) == 0 ? null : rnd.nextInt(1000));
    }
    return list;
  }

  private static Map<String, Integer> map(Random rnd) {
    Map<String, Integer> map = new LinkedHashMap<>();
    int length = rnd.nextInt(4);
    for (int i = 0; i < length; i++) {
      map.put("k" + rnd.nextInt(10), rnd.nextInt(5) == 0 ? null : rnd.nextInt(100));
    }
    return map;
  }

  private static Row struct(Random rnd) {
    List<Row> z = new ArrayList<>();
    int length = rnd.nextInt(3);
    for (int i = 0; i < length; i++) {
      z.add(rnd.nextInt(4) == 0 ? null : RowFactory.create(rnd.nextInt(4) == 0 ? null : 7L * i));
    }
    return RowFactory.create(
        rnd.nextInt(5) == 0 ? null : rnd.nextInt(50),
        rnd.nextInt(5) == 0 ? null : string(rnd),
        rnd.nextInt(5) == 0 ? null : z);
  }

  /**
   * A random row of key ({@code p}, {@code k}) and sequence value {@code s}: each other column null
   * one time in six, every one of them null one row in twenty.
   */
  static Object[] row(Random rnd, String p, int k, long s, int columns, boolean widened) {
    Object[] row = new Object[columns];
    row[P] = p;
    row[K] = k;
    row[S] = s;
    boolean allNull = rnd.nextInt(20) == 0;
    for (int c = I; c < columns; c++) {
      row[c] = allNull || rnd.nextInt(6) == 0 ? null : value(c, rnd, widened);
    }
    return row;
  }

  /** One row of a query, its values rendered and joined with {@code |}. */
  static String render(Row row) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < row.size(); i++) {
      sb.append(i == 0 ? "" : "|").append(render(row.get(i)));
    }
    return sb.toString();
  }

  /** {@code values} at {@code columns}, rendered as {@link #render(Row)} renders a query's row. */
  static String render(Object[] values, int[] columns) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < columns.length; i++) {
      sb.append(i == 0 ? "" : "|").append(render(values[columns[i]]));
    }
    return sb.toString();
  }

  static String render(Object value) {
    if (value == null) {
      return "null";
    } else if (value instanceof byte[] bytes) {
      return "0x" + HexFormat.of().formatHex(bytes);
    } else if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    } else if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      return Long.toString(((Number) value).longValue());
    } else if (value instanceof Row row) {
      return "{" + render(row) + "}";
    } else if (value instanceof scala.collection.Seq<?> seq) {
      return render(CollectionConverters.asJava(seq));
    } else if (value instanceof scala.collection.Map<?, ?> map) {
      return render(CollectionConverters.asJava(map));
    } else if (value instanceof List<?> list) {
      List<String> items = new ArrayList<>();
      for (Object item : list) {
        items.add(render(item));
      }
      return "[" + String.join(",", items) + "]";
    } else if (value instanceof Map<?, ?> map) {
      List<String> items = new ArrayList<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        items.add(render(e.getKey()) + "->" + render(e.getValue()));
      }
      return "{" + String.join(",", items) + "}";
    }
    return value.toString();
  }

  /** The rows of {@code query}, rendered, sorted. */
  static List<String> query(SparkSession spark, String query) {
    List<String> rows = new ArrayList<>();
    for (Row row : spark.sql(query).collectAsList()) {
      rows.add(render(row));
    }
    rows.sort(null);
    return rows;
  }

  /** The model's rows that {@code filter} keeps, at {@code columns}, rendered, sorted. */
  static List<String> expected(Iterable<Object[]> rows, int[] columns, Predicate<Object[]> filter) {
    List<String> result = new ArrayList<>();
    for (Object[] row : rows) {
      if (filter.test(row)) {
        result.add(render(row, columns));
      }
    }
    result.sort(null);
    return result;
  }

  /** Writes rows of any kind into a table through the engine, one commit per {@link #commit}. */
  static final class Writer {
    private final FileStoreTable table;
    private final Function1<Object, Object> converter;
    private final TableWrite write;

    Writer(SparkSession spark, Path tableDir, String name) {
      this.table =
          FileStoreTable.load(
              FileIO.local(), new org.apache.hadoop.fs.Path(tableDir.toUri()), name);
      // the engine's row type, as the table's latest schema on disk has it
      StructType schema = table.rowType();
      this.converter = CatalystTypeConverters.createToCatalystConverter(schema);
      Long base = table.latestSnapshot().map(Snapshot::id).orElse(null);
      this.write = table.newWrite(base, false);
    }

    void write(RowKind kind, Object[] values) {
      write.write((InternalRow) converter.apply(RowFactory.create(values)), kind);
    }

    void commit() {
      try (TableWrite closing = write) {
        table
            .newCommit("property-it")
            .commit(closing.prepareCommit(), Snapshot.BATCH_COMMIT_IDENTIFIER);
      }
    }
  }
}
