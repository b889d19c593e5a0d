package io.basalt.operation.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.operation.read.SplitRead;
import io.basalt.operation.write.TableWrite;
import io.basalt.predicate.Leaf;
import io.basalt.predicate.Predicate;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import io.basalt.utils.CloseableIterator;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bucket selection picks, for every key type, the bucket the writer put the key's row in. */
class BucketSelectionTest {
  private static final int BUCKETS = 16;
  @TempDir Path dir;

  static Stream<Arguments> keyTypes() {
    return Stream.of(
        Arguments.of("bigint", DataTypes.LongType, (LongFunction<Object>) i -> i * 7919),
        Arguments.of("int", DataTypes.IntegerType, (LongFunction<Object>) i -> (int) i * 31),
        Arguments.of(
            "string",
            DataTypes.StringType,
            (LongFunction<Object>) i -> UTF8String.fromString("key-" + i)),
        Arguments.of(
            "decimal(10,2)",
            DataTypes.createDecimalType(10, 2),
            (LongFunction<Object>) i -> Decimal.apply(BigDecimal.valueOf(i * 101, 2), 10, 2)),
        Arguments.of(
            "decimal(30,5)",
            DataTypes.createDecimalType(30, 5),
            (LongFunction<Object>)
                i ->
                    Decimal.apply(
                        new BigDecimal("1234567890123456789.00001").add(BigDecimal.valueOf(i)),
                        30,
                        5)),
        Arguments.of("date", DataTypes.DateType, (LongFunction<Object>) i -> (int) (19000 + i)),
        Arguments.of(
            "timestamp",
            DataTypes.TimestampType,
            (LongFunction<Object>) i -> 1_700_000_000_000_000L + i * 1_000_003L),
        Arguments.of(
            "binary", DataTypes.BinaryType, (LongFunction<Object>) i -> new byte[] {(byte) i, 7}));
  }

  private int tables;

  private FileStoreTable create(DataType keyType, Map<String, String> options) {
    StructType type =
        new StructType().add("k", keyType, false).add("v", DataTypes.StringType, true);
    return FileStoreTable.create(
        FileIO.local(),
        new org.apache.hadoop.fs.Path(dir.resolve("t" + tables++).toUri()),
        "db.t",
        SchemaFactory.create(0, type, List.of(), List.of("k"), options, null));
  }

  /** Writes keys 0..n-1 and returns, by each key's string form, the bucket it landed in. */
  private static Map<String, Integer> writeAndLocate(
      FileStoreTable table, LongFunction<Object> key, int n) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    for (long i = 0; i < n; i++) {
      write.write(new GenericInternalRow(new Object[] {key.apply(i), UTF8String.fromString("v")}));
    }
    table.newCommit("u").commit(write.prepareCommit(), Long.MAX_VALUE);
    Map<String, Integer> buckets = new HashMap<>();
    SplitRead read = new SplitRead(table, table.rowType());
    for (DataSplit split : table.newScan().plan().splits()) {
      try (CloseableIterator<InternalRow> rows = read.read(split)) {
        while (rows.hasNext()) {
          buckets.put(
              show(rows.next().get(0, table.rowType().apply("k").dataType())), split.bucket());
        }
      }
    }
    return buckets;
  }

  private static String show(Object value) {
    return value instanceof byte[] bytes ? java.util.Arrays.toString(bytes) : String.valueOf(value);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("keyTypes")
  void selectsTheWritersBucket(String name, DataType type, LongFunction<Object> key) {
    FileStoreTable table = create(type, Map.of("bucket", String.valueOf(BUCKETS)));
    Map<String, Integer> written = writeAndLocate(table, key, 64);
    assertThat(written).hasSize(64);
    for (long i = 0; i < 64; i++) {
      Object value = key.apply(i);
      BucketSelection selection =
          BucketSelection.of(table, new Leaf("k", type, Leaf.Op.EQ, List.of(value)));
      int expected = written.get(show(value));
      for (int b = 0; b < BUCKETS; b++) {
        assertThat(selection.selects(b, BUCKETS))
            .as("%s = %s in bucket %s", name, value, b)
            .isEqualTo(b == expected);
      }
    }
    // every bucket that holds a key of the IN list, and only those
    List<Object> some = new ArrayList<>();
    for (long i = 0; i < 5; i++) {
      some.add(key.apply(i));
    }
    BucketSelection in = BucketSelection.of(table, new Leaf("k", type, Leaf.Op.IN, some));
    for (int b = 0; b < BUCKETS; b++) {
      final int bucket = b;
      assertThat(in.selects(b, BUCKETS))
          .isEqualTo(some.stream().anyMatch(v -> written.get(show(v)) == bucket));
    }
  }

  @Test
  void anIntLiteralOnABigintKeySelectsLikeTheLong() {
    FileStoreTable table = create(DataTypes.LongType, Map.of("bucket", String.valueOf(BUCKETS)));
    Map<String, Integer> written = writeAndLocate(table, i -> i, 40);
    for (int i = 0; i < 40; i++) {
      BucketSelection selection =
          BucketSelection.of(table, new Leaf("k", DataTypes.IntegerType, Leaf.Op.EQ, List.of(i)));
      assertThat(selection.selects(written.get(String.valueOf((long) i)), BUCKETS)).isTrue();
      assertThat(selection.describe(List.of(BUCKETS)))
          .isEqualTo("k: " + written.get(String.valueOf((long) i)) + " of 16");
    }
  }

  @Test
  void selectsEveryBucketWhenTheKeyIsOpenOrTheTableIsNotFixedBucket() {
    FileStoreTable fixed = create(DataTypes.LongType, Map.of("bucket", "4"));
    Predicate range = new Leaf("k", DataTypes.LongType, Leaf.Op.GT, List.of(3L));
    assertThat(BucketSelection.of(fixed, range).selectsAll()).isTrue();
    assertThat(BucketSelection.of(fixed, null).describe(List.of(4))).isEqualTo("all");
    Leaf eq = new Leaf("k", DataTypes.LongType, Leaf.Op.EQ, List.of(3L));
    // files of dynamic-bucket or postponed writes carry no fixed count: never skipped
    assertThat(BucketSelection.of(fixed, eq).selects(0, -1)).isTrue();
    Path dynamicDir = dir.resolve("dynamic");
    FileStoreTable dynamic =
        FileStoreTable.create(
            FileIO.local(),
            new org.apache.hadoop.fs.Path(dynamicDir.toUri()),
            "db.d",
            SchemaFactory.create(
                0, TestTables.ID_V, List.of(), List.of("id"), Map.of("bucket", "-1"), null));
    assertThat(
            BucketSelection.of(dynamic, new Leaf("id", DataTypes.LongType, Leaf.Op.EQ, List.of(3L)))
                .selectsAll())
        .isTrue();
    FileStoreTable modFunction =
        create(DataTypes.LongType, Map.of("bucket", "4", "bucket-function.type", "mod"));
    assertThat(BucketSelection.of(modFunction, eq).selectsAll()).isTrue();
  }
}
