package io.basalt.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.avro.RowWriter;
import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.manifest.FileKind;
import io.basalt.utils.CloseableIterator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class IndexManifestCodecTest {
  private static final BinaryRowCodec PARTITION = new BinaryRowCodec(DataTypes.StringType);

  static BinaryRow partition(String dt) {
    return PARTITION.toBinary(new GenericInternalRow(new Object[] {UTF8String.fromString(dt)}));
  }

  static IndexManifestEntry hashEntry(BinaryRow partition, int bucket, String fileName) {
    IndexFileMeta file = new IndexFileMeta(IndexFileMeta.HASH, fileName, 40, 10, null, null);
    return new IndexManifestEntry(FileKind.ADD, partition, bucket, file);
  }

  static IndexManifestEntry dvEntry(BinaryRow partition, int bucket, String fileName) {
    Map<String, DeletionVectorMeta> ranges = new LinkedHashMap<>();
    ranges.put("data-z.parquet", new DeletionVectorMeta("data-z.parquet", 1, 22, 1L));
    ranges.put("data-a.parquet", new DeletionVectorMeta("data-a.parquet", 31, 64, null));
    IndexFileMeta file = IndexFileMeta.deletionVectors(fileName, 103, ranges);
    return new IndexManifestEntry(FileKind.ADD, partition, bucket, file);
  }

  private static byte[] write(List<IndexManifestEntry> entries) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (RowWriter<IndexManifestEntry> writer = IndexManifestCodec.writer(out, "im-0")) {
      entries.forEach(writer::write);
      assertThat(writer.count()).isEqualTo(entries.size());
    }
    return out.toByteArray();
  }

  private static List<IndexManifestEntry> read(byte[] bytes, String name) {
    List<IndexManifestEntry> entries = new ArrayList<>();
    try (CloseableIterator<IndexManifestEntry> it =
        IndexManifestCodec.read(new ByteArrayInputStream(bytes), name)) {
      it.forEachRemaining(entries::add);
    }
    return entries;
  }

  @Test
  void schemaIsTheOneOfTheNotes() {
    Schema schema = IndexManifestCodec.SCHEMA;

    assertThat(schema.getFullName()).isEqualTo("org.apache.paimon.avro.generated.record");
    assertThat(schema.getFields().stream().map(f -> f.name() + ":" + f.schema()).toList())
        .containsExactly(
            "_VERSION:\"int\"",
            "_KIND:\"int\"",
            "_PARTITION:\"bytes\"",
            "_BUCKET:\"int\"",
            "_INDEX_TYPE:\"string\"",
            "_FILE_NAME:\"string\"",
            "_FILE_SIZE:\"long\"",
            "_ROW_COUNT:\"long\"",
            "_DELETIONS_VECTORS_RANGES:[\"null\",{\"type\":\"array\",\"items\":[\"null\","
                + "{\"type\":\"record\",\"name\":\"record__DELETIONS_VECTORS_RANGES\","
                + "\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":["
                + "{\"name\":\"f0\",\"type\":\"string\"},{\"name\":\"f1\",\"type\":\"int\"},"
                + "{\"name\":\"f2\",\"type\":\"int\"},"
                + "{\"name\":\"_CARDINALITY\",\"type\":[\"null\",\"long\"],\"default\":null}]}]}]",
            "_EXTERNAL_PATH:[\"null\",\"string\"]");
    assertThat(schema.getField("_EXTERNAL_PATH").defaultVal())
        .isEqualTo(org.apache.avro.JsonProperties.NULL_VALUE);
  }

  @Test
  void roundTripsHashAndDeletionVectorEntriesKeepingRangeOrder() throws IOException {
    IndexFileMeta external =
        new IndexFileMeta(IndexFileMeta.HASH, "index-e-0", 8, 2, null, "s3://b/x/index-e-0");
    List<IndexManifestEntry> entries =
        List.of(
            hashEntry(partition("2024-01-01"), 3, "index-h-0"),
            dvEntry(BinaryRow.EMPTY, 0, "index-d-1"),
            new IndexManifestEntry(FileKind.DELETE, partition("x"), -1, external));

    byte[] bytes = write(entries);
    List<IndexManifestEntry> copy = read(bytes, "im-0");

    assertThat(copy).isEqualTo(entries);
    assertThat(copy.get(1).indexFile().dvRanges().keySet())
        .containsExactly("data-z.parquet", "data-a.parquet");
    try (DataFileStream<GenericRecord> stream =
        new DataFileStream<>(new ByteArrayInputStream(bytes), new GenericDatumReader<>())) {
      assertThat(stream.getMetaString("avro.codec")).isEqualTo("zstandard");
      GenericRecord first = stream.next();
      assertThat(first.get("_VERSION")).isEqualTo(1);
      assertThat(first.get("_DELETIONS_VECTORS_RANGES")).isNull();
      assertThat(first.get("_INDEX_TYPE").toString()).isEqualTo("HASH");
    }
  }

  @Test
  void emptyManifestIsValid() {
    assertThat(read(write(List.of()), "im-empty")).isEmpty();
  }

  @Test
  void fileCutInsideItsLastBlockFailsNamingTheFile() {
    byte[] bytes = write(List.of(dvEntry(partition("p"), 1, "index-d-0")));
    byte[] truncated = Arrays.copyOf(bytes, bytes.length - 1);

    assertThatThrownBy(() -> read(truncated, "index-manifest-cut-0"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read index manifest index-manifest-cut-0: the file is truncated (its last"
                + " block is incomplete)")
        .cause()
        .isInstanceOf(java.io.EOFException.class)
        .hasMessage("Input ended after %s bytes, inside a block", bytes.length - 1);
  }

  @Test
  void truncationAnywhereFailsNamingTheFile() {
    List<IndexManifestEntry> entries = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      entries.add(dvEntry(partition("p" + i), i, "index-d-" + i));
    }
    byte[] bytes = write(entries);
    for (int length : new int[] {0, 3, 40, bytes.length / 2, bytes.length - 5}) {
      byte[] truncated = Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> read(truncated, "im-cut"))
          .as("truncated to %s of %s bytes", length, bytes.length)
          .isInstanceOf(BasaltException.class)
          .hasMessageStartingWith("Failed to read index manifest im-cut: ");
    }
  }

  @Test
  void garbageFailsNamingTheFile() {
    byte[] garbage = "not an avro file at all".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    assertThatThrownBy(() -> read(garbage, "im-bad"))
        .isInstanceOf(BasaltException.class)
        .hasMessage("Failed to read index manifest im-bad: Not an Avro data file.");
  }

  @Test
  void otherVersionsAreRejected() {
    assertThatThrownBy(() -> read(withVersion(2), "im-new"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read index manifest im-new: written by a newer version (format 2, max"
                + " supported 1)");
    assertThatThrownBy(() -> read(withVersion(0), "im-old"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read index manifest im-old: unsupported format version 0 (expected 1)");
  }

  @Test
  void fileWithoutOptionalFieldsAndWithUnknownOnesReads() {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : IndexManifestCodec.SCHEMA.getFields()) {
      if (!field.name().equals("_EXTERNAL_PATH")
          && !field.name().equals("_DELETIONS_VECTORS_RANGES")) {
        fields.add(new Schema.Field(field, field.schema()));
      }
    }
    fields.add(new Schema.Field("_FUTURE", Schema.create(Schema.Type.LONG)));
    Schema schema = Schema.createRecord("record", null, "x", false, fields);
    GenericRecord full = IndexManifestCodec.toRecord(hashEntry(partition("q"), 2, "index-h-9"));
    GenericRecord row = new GenericData.Record(schema);
    for (Schema.Field field : schema.getFields()) {
      row.put(field.name(), field.name().equals("_FUTURE") ? 7L : full.get(field.name()));
    }

    assertThat(read(avro(schema, row), "im-evolved"))
        .containsExactly(hashEntry(partition("q"), 2, "index-h-9"));
  }

  @Test
  void rangesListingADataFileTwiceAreRejected() {
    GenericRecord row = IndexManifestCodec.toRecord(dvEntry(BinaryRow.EMPTY, 0, "index-d-0"));
    @SuppressWarnings("unchecked")
    List<GenericRecord> ranges = (List<GenericRecord>) row.get("_DELETIONS_VECTORS_RANGES");
    ranges.get(1).put("f0", "data-z.parquet");

    assertThatThrownBy(() -> read(avro(IndexManifestCodec.SCHEMA, row), "im-dup"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read index manifest im-dup: field _DELETIONS_VECTORS_RANGES lists data"
                + " files more than once: [data-z.parquet]");
  }

  @Test
  void missingRequiredFieldIsReported() {
    GenericRecord row = IndexManifestCodec.toRecord(hashEntry(BinaryRow.EMPTY, 0, "index-h-0"));
    // Avro cannot write a null into a non-null field, so the file leaves the field out
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : IndexManifestCodec.SCHEMA.getFields()) {
      if (!field.name().equals("_FILE_NAME")) {
        fields.add(new Schema.Field(field, field.schema()));
      }
    }
    Schema schema = Schema.createRecord("record", null, "x", false, fields);
    GenericRecord reshaped = new GenericData.Record(schema);
    fields.forEach(f -> reshaped.put(f.name(), row.get(f.name())));

    assertThatThrownBy(() -> read(avro(schema, reshaped), "im-nofile"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read index manifest im-nofile: required field _FILE_NAME of record is"
                + " missing or null");
  }

  private static byte[] withVersion(int version) {
    GenericRecord row = IndexManifestCodec.toRecord(hashEntry(BinaryRow.EMPTY, 0, "index-h-0"));
    row.put("_VERSION", version);
    return avro(IndexManifestCodec.SCHEMA, row);
  }

  static byte[] avro(Schema schema, GenericRecord... rows) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema))) {
      writer.create(schema, out);
      for (GenericRecord row : rows) {
        writer.append(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
