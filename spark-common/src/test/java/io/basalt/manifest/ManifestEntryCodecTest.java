package io.basalt.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.avro.RowWriter;
import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.utils.CloseableIterator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class ManifestEntryCodecTest {
  private static final BinaryRowCodec PARTITION = new BinaryRowCodec(DataTypes.StringType);
  private static final BinaryRowCodec KEY = new BinaryRowCodec(DataTypes.LongType);

  static BinaryRow partition(String dt) {
    return PARTITION.toBinary(new GenericInternalRow(new Object[] {UTF8String.fromString(dt)}));
  }

  static BinaryRow key(long id) {
    return KEY.toBinary(new GenericInternalRow(new Object[] {id}));
  }

  static DataFileMeta fileWithNulls(String name) {
    SimpleStats unknownCounts = new SimpleStats(key(1), key(9), null);
    return new DataFileMeta(
        name,
        1234,
        10,
        key(1),
        key(9),
        unknownCounts,
        SimpleStats.EMPTY,
        0,
        9,
        0,
        0,
        List.of(),
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  static DataFileMeta fileWithEverything(String name) {
    SimpleStats keyStats = new SimpleStats(key(1), key(9), List.of(0L));
    SimpleStats valueStats =
        new SimpleStats(key(-5), key(500), Arrays.asList(3L, null, Long.MAX_VALUE));
    return new DataFileMeta(
        name,
        Long.MAX_VALUE,
        10,
        key(1),
        key(9),
        keyStats,
        valueStats,
        -1,
        Long.MAX_VALUE,
        7,
        5,
        List.of(name + ".index", "other"),
        1_704_067_200_123L,
        2L,
        new byte[] {1, 2, 3, 0, -1},
        DataFileMeta.SOURCE_COMPACT,
        List.of("id", "msg"),
        "s3://bucket/elsewhere/" + name,
        100L,
        List.of("msg"));
  }

  private static byte[] write(List<ManifestEntry> entries) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (RowWriter<ManifestEntry> writer = ManifestEntryCodec.writer(out, "manifest-test-0")) {
      entries.forEach(writer::write);
      assertThat(writer.count()).isEqualTo(entries.size());
    }
    return out.toByteArray();
  }

  private static List<ManifestEntry> read(byte[] bytes, String name) {
    List<ManifestEntry> entries = new ArrayList<>();
    try (CloseableIterator<ManifestEntry> it =
        ManifestEntryCodec.read(new ByteArrayInputStream(bytes), name)) {
      it.forEachRemaining(entries::add);
    }
    return entries;
  }

  @Test
  void roundTripsEntriesWithEveryNullableFieldNullOrSet() {
    List<ManifestEntry> entries =
        List.of(
            new ManifestEntry(FileKind.ADD, partition("2024-01-01"), 1, 2, fileWithNulls("a")),
            new ManifestEntry(
                FileKind.DELETE, BinaryRow.EMPTY, -2, -2, fileWithEverything("data-x-0.parquet")));

    List<ManifestEntry> decoded = read(write(entries), "manifest-test-0");

    assertThat(decoded).usingRecursiveFieldByFieldElementComparator().isEqualTo(entries);
    assertThat(decoded.get(1).file().embeddedIndex()).containsExactly(1, 2, 3, 0, -1);
    assertThat(decoded.get(1).file().valueStats().nullCounts())
        .containsExactly(3L, null, Long.MAX_VALUE);
    assertThat(decoded.get(0).file().keyStats().nullCounts()).isNull();
  }

  @Test
  void writesZstandardContainerWithPaimonSchema() throws IOException {
    byte[] bytes =
        write(List.of(new ManifestEntry(FileKind.ADD, partition("d"), 0, 1, fileWithNulls("f"))));

    try (DataFileStream<GenericRecord> stream =
        new DataFileStream<>(new ByteArrayInputStream(bytes), new GenericDatumReader<>())) {
      assertThat(stream.getMetaString("avro.codec")).isEqualTo("zstandard");
      assertThat(stream.getSchema()).isEqualTo(ManifestEntryCodec.SCHEMA);
      GenericRecord row = stream.next();
      assertThat(row.get("_VERSION")).isEqualTo(2);
      assertThat(row.get("_KIND")).isEqualTo(0);
      assertThat(((java.nio.ByteBuffer) row.get("_PARTITION")).array())
          .isEqualTo(BinaryRowCodec.serialize(partition("d")));
    }
  }

  @Test
  void manySmallEntriesStreamBack() {
    List<ManifestEntry> entries = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      entries.add(
          new ManifestEntry(
              FileKind.ADD, partition("p" + i % 7), i % 4, 4, fileWithNulls("f" + i)));
    }
    byte[] bytes = write(entries);

    try (CloseableIterator<ManifestEntry> it =
        ManifestEntryCodec.read(new ByteArrayInputStream(bytes), "big")) {
      int count = 0;
      while (it.hasNext()) {
        ManifestEntry entry = it.next();
        assertThat(entry.file().fileName()).isEqualTo("f" + count);
        assertThat(entry.bucket()).isEqualTo(count % 4);
        count++;
      }
      assertThat(count).isEqualTo(5000);
    }
  }

  @Test
  void emptyManifestReadsAsNoRows() {
    assertThat(read(write(List.of()), "empty")).isEmpty();
  }

  @Test
  void schemaFollowsTheNotes() {
    Schema schema = ManifestEntryCodec.SCHEMA;
    assertThat(schema.getFullName()).isEqualTo("org.apache.paimon.avro.generated.record");
    assertThat(AvroSchemaAssert.names(schema))
        .containsExactly("_VERSION", "_KIND", "_PARTITION", "_BUCKET", "_TOTAL_BUCKETS", "_FILE");
    AvroSchemaAssert.typeOf(schema, "_KIND", "\"int\"");
    AvroSchemaAssert.typeOf(schema, "_PARTITION", "\"bytes\"");

    Schema file = schema.getField("_FILE").schema();
    assertThat(file.getFullName()).isEqualTo("org.apache.paimon.avro.generated.record__FILE");
    assertThat(AvroSchemaAssert.names(file))
        .containsExactly(
            "_FILE_NAME",
            "_FILE_SIZE",
            "_ROW_COUNT",
            "_MIN_KEY",
            "_MAX_KEY",
            "_KEY_STATS",
            "_VALUE_STATS",
            "_MIN_SEQUENCE_NUMBER",
            "_MAX_SEQUENCE_NUMBER",
            "_SCHEMA_ID",
            "_LEVEL",
            "_EXTRA_FILES",
            "_CREATION_TIME",
            "_DELETE_ROW_COUNT",
            "_EMBEDDED_FILE_INDEX",
            "_FILE_SOURCE",
            "_VALUE_STATS_COLS",
            "_EXTERNAL_PATH",
            "_FIRST_ROW_ID",
            "_WRITE_COLS");
    AvroSchemaAssert.typeOf(file, "_FILE_NAME", "\"string\"");
    AvroSchemaAssert.typeOf(file, "_LEVEL", "\"int\"");
    AvroSchemaAssert.typeOf(file, "_EXTRA_FILES", "{\"type\":\"array\",\"items\":\"string\"}");
    AvroSchemaAssert.typeOf(
        file,
        "_CREATION_TIME",
        "[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}]");
    AvroSchemaAssert.typeOf(file, "_DELETE_ROW_COUNT", "[\"null\",\"long\"]");
    AvroSchemaAssert.typeOf(file, "_EMBEDDED_FILE_INDEX", "[\"null\",\"bytes\"]");
    AvroSchemaAssert.typeOf(file, "_FILE_SOURCE", "[\"null\",\"int\"]");
    AvroSchemaAssert.typeOf(
        file, "_VALUE_STATS_COLS", "[\"null\",{\"type\":\"array\",\"items\":\"string\"}]");
    AvroSchemaAssert.typeOf(file, "_EXTERNAL_PATH", "[\"null\",\"string\"]");
    AvroSchemaAssert.typeOf(file, "_FIRST_ROW_ID", "[\"null\",\"long\"]");
    AvroSchemaAssert.typeOf(
        file, "_WRITE_COLS", "[\"null\",{\"type\":\"array\",\"items\":\"string\"}]");
    for (Schema.Field field : file.getFields()) {
      boolean nullable = field.schema().getType() == Schema.Type.UNION;
      assertThat(field.pos() >= 12).as(field.name()).isEqualTo(nullable);
      assertThat(field.defaultVal()).isEqualTo(nullable ? JsonProperties.NULL_VALUE : null);
    }

    Schema keyStats = file.getField("_KEY_STATS").schema();
    assertThat(keyStats.getName()).isEqualTo("record__FILE__KEY_STATS");
    assertThat(file.getField("_VALUE_STATS").schema().getName())
        .isEqualTo("record__FILE__VALUE_STATS");
    AvroSchemaAssert.assertSimpleStats(keyStats);
  }

  @Test
  void corruptBytesFailNamingTheFile() {
    byte[] garbage = "definitely not avro".getBytes();
    assertThatThrownBy(() -> read(garbage, "manifest-bad-0"))
        .isInstanceOf(BasaltException.class)
        .hasMessageStartingWith("Failed to read manifest manifest-bad-0: ")
        .hasMessageContaining("Not an Avro data file")
        .hasCauseInstanceOf(IOException.class);
  }

  @Test
  void truncatedFileFailsNamingTheFile() {
    List<ManifestEntry> entries = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      entries.add(
          new ManifestEntry(FileKind.ADD, partition("x"), 0, 1, fileWithEverything("f" + i)));
    }
    byte[] bytes = write(entries);
    for (int length : new int[] {3, 40, bytes.length / 2, bytes.length - 5}) {
      byte[] truncated = Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> read(truncated, "manifest-cut-0"))
          .as("truncated to %s of %s bytes", length, bytes.length)
          .isInstanceOf(BasaltException.class)
          .hasMessageStartingWith("Failed to read manifest manifest-cut-0: ")
          .cause()
          .isNotNull();
    }
  }

  @Test
  void fileCutInsideItsLastBlockIsNotMistakenForAShorterFile() {
    byte[] bytes =
        write(List.of(new ManifestEntry(FileKind.ADD, partition("x"), 0, 1, fileWithNulls("f"))));
    byte[] truncated = Arrays.copyOf(bytes, bytes.length - 1);

    assertThatThrownBy(() -> read(truncated, "manifest-cut-1"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read manifest manifest-cut-1: the file is truncated (its last block is"
                + " incomplete)")
        .cause()
        .isInstanceOf(java.io.EOFException.class)
        .hasMessage("Input ended after %s bytes, inside a block", bytes.length - 1);
  }

  @Test
  void otherVersionsAreRejected() {
    assertThatThrownBy(() -> read(AvroTestFiles.withVersion(1), "m-old"))
        .isInstanceOf(BasaltException.class)
        .hasMessage("Failed to read manifest m-old: unsupported format version 1 (expected 2)");
    assertThatThrownBy(() -> read(AvroTestFiles.withVersion(3), "m-new"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read manifest m-new: written by a newer version (format 3, max supported 2)");
  }

  @Test
  void fileWithoutVersionColumnIsRejected() {
    Schema other =
        AvroSchemas.record("record", List.of(AvroSchemas.required("x", AvroSchemas.intType())));
    assertThatThrownBy(() -> read(AvroTestFiles.empty(other), "not-a-manifest"))
        .isInstanceOf(BasaltException.class)
        .hasMessage("Failed to read manifest not-a-manifest: its rows have no _VERSION field");
  }

  @Test
  void extraAndMissingOptionalFieldsStillRead() {
    byte[] bytes = AvroTestFiles.evolvedManifest(fileWithEverything("f"), partition("d"));

    List<ManifestEntry> decoded = read(bytes, "evolved");

    DataFileMeta expected = fileWithEverything("f");
    DataFileMeta file = decoded.get(0).file();
    assertThat(file.fileName()).isEqualTo("f");
    assertThat(file.valueStats()).isEqualTo(expected.valueStats());
    assertThat(file.externalPath()).isNull();
    assertThat(file.firstRowId()).isNull();
    assertThat(file.writeCols()).isNull();
    assertThat(file.deleteRowCount()).isEqualTo(2L);
    assertThat(decoded.get(0).partition()).isEqualTo(partition("d"));
  }

  @Test
  void missingRequiredFieldAndBadKindNameTheField() {
    assertThatThrownBy(() -> read(AvroTestFiles.manifestWithoutFileSize(), "m-broken"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read manifest m-broken: required field _FILE_SIZE of record__FILE is missing"
                + " or null");
    assertThatThrownBy(() -> read(AvroTestFiles.manifestWithKind(7, fileWithNulls("f")), "m-kind"))
        .isInstanceOf(BasaltException.class)
        .hasMessage("Failed to read manifest m-kind: Unknown manifest entry kind 7");
  }

  @Test
  void invalidPartitionBytesNameTheFieldAndFile() {
    ManifestEntry entry =
        new ManifestEntry(FileKind.ADD, new BinaryRow(3, new byte[8]), 0, 1, fileWithNulls("f"));
    assertThatThrownBy(() -> read(write(List.of(entry)), "m-row"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read manifest m-row: field _PARTITION of record: Invalid serialized"
                + " BinaryRow: arity 3 with 8 row bytes");
  }

  @Test
  void writerClosesStreamAndRejectsLateWrites() {
    TrackingOutputStream out = new TrackingOutputStream();
    RowWriter<ManifestEntry> writer = ManifestEntryCodec.writer(out);
    writer.close();
    writer.close();

    assertThat(out.closed).isTrue();
    ManifestEntry entry =
        new ManifestEntry(FileKind.ADD, BinaryRow.EMPTY, 0, 1, fileWithNulls("f"));
    assertThatThrownBy(() -> writer.write(entry))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot write to manifest <stream>: the writer is closed");
  }

  @Test
  void readerClosesStream() {
    byte[] bytes = write(List.of());
    boolean[] closed = {false};
    InputStream in =
        new ByteArrayInputStream(bytes) {
          @Override
          public void close() {
            closed[0] = true;
          }
        };
    ManifestEntryCodec.read(in, "m").close();
    assertThat(closed[0]).isTrue();
  }

  private static final class TrackingOutputStream extends ByteArrayOutputStream {
    boolean closed;

    @Override
    public void close() {
      closed = true;
    }
  }
}
