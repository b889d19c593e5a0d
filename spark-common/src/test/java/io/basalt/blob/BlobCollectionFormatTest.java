package io.basalt.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HexFormat;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ARRAY&lt;BINARY&gt; and MAP&lt;K, BINARY&gt; values in {@code .blob} records, against the payload
 * layout of docs/format.md (Paimon's array and map element serializers), and reads of them.
 */
class BlobCollectionFormatTest {
  @TempDir java.nio.file.Path dir;

  private static String hex(byte[] bytes, int from, int to) {
    return HexFormat.of().formatHex(bytes, from, to);
  }

  @Test
  void arrayPayloadHasTheDocumentedBytes() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BlobFileWriter writer = new BlobFileWriter(out);
    writer.writeArray(
        new GenericArrayData(new Object[] {new byte[] {0x41}, null, new byte[] {0x42, 0x43}}));
    writer.finish();
    byte[] bytes = out.toByteArray();
    String payload =
        // array magic 1094861634 = 0x41424342 (LE), version 1, 3 elements (LE int)
        "42434241"
            + "01"
            + "03000000"
            // the non-null elements' bytes
            + "41"
            + "4243"
            // lengths 1, -1, 2: deltas 1, -2, 3, zig-zag 2, 3, 6
            + "020306"
            // index length 3
            + "03000000";
    assertThat(hex(bytes, 0, 4)).isEqualTo("cf114e58"); // the record magic
    assertThat(hex(bytes, 4, 4 + payload.length() / 2)).isEqualTo(payload);
    // the record length follows: payload + 16
    assertThat(bytes[4 + payload.length() / 2]).isEqualTo((byte) (payload.length() / 2 + 16));
  }

  @Test
  void mapPayloadHasTheDocumentedBytes() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BlobFileWriter writer = new BlobFileWriter(out);
    writer.writeMap(
        map(
            new Object[] {UTF8String.fromString("a"), UTF8String.fromString("bc")},
            new Object[] {new byte[] {0x01}, null}),
        DataTypes.StringType,
        BlobMapKeys.of(DataTypes.StringType).orElseThrow());
    writer.finish();
    String payload =
        // map magic 0x4D424342 (LE), version 1, 2 entries
        "4243424d"
            + "01"
            + "02000000"
            // keys "a", "bc", then the non-null values
            + "616263"
            + "01"
            // key lengths 1, 2 -> deltas 1, 1 -> 02 02; value lengths 1, -1 -> 1, -2 -> 02 03
            + "0202"
            + "0203"
            // key index length 2, value index length 2
            + "02000000"
            + "02000000";
    assertThat(hex(out.toByteArray(), 4, 4 + payload.length() / 2)).isEqualTo(payload);
  }

  @Test
  void arraysAndMapsRoundTripWithNullsAndEmpties() throws IOException {
    Path path = new Path(dir.resolve("values.blob").toUri());
    DataType decimal = DataTypes.createDecimalType(5, 2);
    BlobMapKeys decimalKeys = BlobMapKeys.of(decimal).orElseThrow();
    BlobMapKeys longKeys = BlobMapKeys.of(DataTypes.LongType).orElseThrow();
    try (BlobFileWriter writer = new BlobFileWriter(fs().create(path))) {
      writer.writeArray(new GenericArrayData(new Object[] {new byte[] {7}, null, new byte[0]}));
      writer.writeArray(null);
      writer.writeArray(new GenericArrayData(new Object[0]));
      writer.writeMap(
          map(
              new Object[] {Decimal.apply("-3.5"), Decimal.apply("0.01")},
              new Object[] {new byte[] {9, 9}, null}),
          decimal,
          decimalKeys);
      writer.writeMap(
          map(new Object[] {Long.MIN_VALUE}, new Object[] {new byte[] {1}}),
          DataTypes.LongType,
          longKeys);
      writer.finish();
    }
    try (BlobFileReader reader = open(path)) {
      ArrayData array = reader.readArray(0);
      assertThat(array.numElements()).isEqualTo(3);
      assertThat(array.getBinary(0)).containsExactly(7);
      assertThat(array.isNullAt(1)).isTrue();
      assertThat(array.getBinary(2)).isEmpty();
      assertThat(reader.readArray(1)).isNull();
      assertThat(reader.readArray(2).numElements()).isZero();
      MapData map = reader.readMap(3, decimalKeys);
      assertThat(map.keyArray().getDecimal(0, 5, 2).toString()).isEqualTo("-3.50");
      assertThat(map.keyArray().getDecimal(1, 5, 2).toString()).isEqualTo("0.01");
      assertThat(map.valueArray().getBinary(0)).containsExactly(9, 9);
      assertThat(map.valueArray().isNullAt(1)).isTrue();
      assertThat(reader.readMap(4, longKeys).keyArray().getLong(0)).isEqualTo(Long.MIN_VALUE);
      // a record of another shape is refused, not misread
      assertThatThrownBy(() -> reader.readMap(0, longKeys))
          .hasMessageContaining("values.blob is damaged: record 0");
    }
  }

  @Test
  void damagedElementIndexIsReported() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BlobFileWriter writer = new BlobFileWriter(out);
    writer.writeArray(new GenericArrayData(new Object[] {new byte[] {1, 2}}));
    writer.finish();
    byte[] bytes = out.toByteArray();
    // element length 2 (zig-zag 4) at payload offset 11 -> claim 3 (zig-zag 6)
    assertThat(bytes[4 + 11]).isEqualTo((byte) 4);
    bytes[4 + 11] = 6;
    Files.write(dir.resolve("bad.blob"), bytes);
    try (BlobFileReader reader = open(new Path(dir.resolve("bad.blob").toUri()))) {
      assertThatThrownBy(() -> reader.readArray(0))
          .hasMessageContaining(
              "bad.blob is damaged: record 0 has element lengths that do not fit");
    }
  }

  @Test
  void mapKeysFollowPaimonsByteForms() {
    assertThat(BlobMapKeys.of(DataTypes.ShortType).orElseThrow().encode((short) 0x0102))
        .containsExactly(2, 1);
    assertThat(BlobMapKeys.of(DataTypes.IntegerType).orElseThrow().encode(1))
        .containsExactly(1, 0, 0, 0);
    assertThat(BlobMapKeys.of(DataTypes.BooleanType).orElseThrow().encode(true)).containsExactly(1);
    assertThat(BlobMapKeys.of(DataTypes.DateType).orElseThrow().decode(new byte[] {2, 0, 0, 0}))
        .isEqualTo(2);
    DataType wide = DataTypes.createDecimalType(20, 0);
    byte[] encoded = BlobMapKeys.of(wide).orElseThrow().encode(Decimal.apply("-1"));
    assertThat(encoded).containsExactly(0xFF); // big-endian two's complement of the unscaled value
    assertThat(BlobMapKeys.of(DataTypes.DoubleType)).isEmpty();
    assertThatThrownBy(
            () -> BlobMapKeys.of(DataTypes.IntegerType).orElseThrow().decode(new byte[3]))
        .hasMessage("a map key has 3 bytes, not 4");
  }

  private static MapData map(Object[] keys, Object[] values) {
    return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
  }

  private BlobFileReader open(Path path) throws IOException {
    return BlobFileReader.open(fs(), path, fs().getFileStatus(path).getLen());
  }

  private static FileSystem fs() throws IOException {
    return FileSystem.getLocal(new Configuration()).getRaw();
  }
}
