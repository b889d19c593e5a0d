package io.basalt.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.avro.RowWriter;
import io.basalt.data.BinaryRow;
import io.basalt.utils.CloseableIterator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class ManifestFileMetaCodecTest {

  private static byte[] write(List<ManifestFileMeta> metas) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (RowWriter<ManifestFileMeta> writer = ManifestFileMetaCodec.writer(out, "list-0")) {
      metas.forEach(writer::write);
      assertThat(writer.count()).isEqualTo(metas.size());
    }
    return out.toByteArray();
  }

  private static List<ManifestFileMeta> read(byte[] bytes, String name) {
    List<ManifestFileMeta> metas = new ArrayList<>();
    try (CloseableIterator<ManifestFileMeta> it =
        ManifestFileMetaCodec.read(new ByteArrayInputStream(bytes), name)) {
      it.forEachRemaining(metas::add);
    }
    return metas;
  }

  static ManifestFileMeta withNulls() {
    return new ManifestFileMeta(
        "manifest-a-0", 1000, 3, 0, SimpleStats.EMPTY, 0, null, null, null, null);
  }

  static ManifestFileMeta withEverything() {
    BinaryRow min = ManifestEntryCodecTest.partition("2024-01-01");
    BinaryRow max = ManifestEntryCodecTest.partition("2024-12-31");
    SimpleStats partitions = new SimpleStats(min, max, Arrays.asList(0L, null));
    return new ManifestFileMeta("manifest-b-1", Long.MAX_VALUE, 10, 4, partitions, 3, 0, 15, 0, 5);
  }

  @Test
  void roundTripsRowsWithNullAndSetOptionalFields() {
    List<ManifestFileMeta> metas = List.of(withNulls(), withEverything());

    assertThat(read(write(metas), "list-0")).isEqualTo(metas);
  }

  @Test
  void emptyListIsValid() throws IOException {
    byte[] bytes = write(List.of());

    assertThat(read(bytes, "manifest-list-empty")).isEmpty();
    try (DataFileStream<GenericRecord> stream =
        new DataFileStream<>(new ByteArrayInputStream(bytes), new GenericDatumReader<>())) {
      assertThat(stream.getMetaString("avro.codec")).isEqualTo("zstandard");
      assertThat(stream.hasNext()).isFalse();
    }
  }

  @Test
  void iteratorSignalsTheEnd() {
    try (CloseableIterator<ManifestFileMeta> it =
        ManifestFileMetaCodec.read(new ByteArrayInputStream(write(List.of())), "l")) {
      assertThatThrownBy(it::next)
          .isInstanceOf(NoSuchElementException.class)
          .hasMessage("No more rows in manifest list l");
    }
  }

  @Test
  void schemaFollowsTheNotes() {
    Schema schema = ManifestFileMetaCodec.SCHEMA;
    assertThat(schema.getFullName()).isEqualTo("org.apache.paimon.avro.generated.record");
    assertThat(AvroSchemaAssert.names(schema))
        .containsExactly(
            "_VERSION",
            "_FILE_NAME",
            "_FILE_SIZE",
            "_NUM_ADDED_FILES",
            "_NUM_DELETED_FILES",
            "_PARTITION_STATS",
            "_SCHEMA_ID",
            "_MIN_BUCKET",
            "_MAX_BUCKET",
            "_MIN_LEVEL",
            "_MAX_LEVEL");
    AvroSchemaAssert.typeOf(schema, "_VERSION", "\"int\"");
    AvroSchemaAssert.typeOf(schema, "_FILE_NAME", "\"string\"");
    AvroSchemaAssert.typeOf(schema, "_FILE_SIZE", "\"long\"");
    AvroSchemaAssert.typeOf(schema, "_SCHEMA_ID", "\"long\"");
    for (String name : List.of("_MIN_BUCKET", "_MAX_BUCKET", "_MIN_LEVEL", "_MAX_LEVEL")) {
      AvroSchemaAssert.typeOf(schema, name, "[\"null\",\"int\"]");
      assertThat(schema.getField(name).defaultVal()).isEqualTo(JsonProperties.NULL_VALUE);
    }
    Schema stats = schema.getField("_PARTITION_STATS").schema();
    assertThat(stats.getFullName())
        .isEqualTo("org.apache.paimon.avro.generated.record__PARTITION_STATS");
    AvroSchemaAssert.assertSimpleStats(stats);
  }

  @Test
  void corruptAndTruncatedListsFailNamingTheFile() {
    assertThatThrownBy(() -> read(new byte[] {'O', 'b', 'j', 1, 9, 9}, "manifest-list-x"))
        .isInstanceOf(BasaltException.class)
        .hasMessageStartingWith("Failed to read manifest list manifest-list-x: ")
        .hasCauseInstanceOf(IOException.class);

    byte[] bytes = write(List.of(withEverything(), withNulls()));
    byte[] corrupt = bytes.clone();
    corrupt[corrupt.length - 3] ^= 0x55; // breaks the trailing sync marker
    assertThatThrownBy(() -> read(corrupt, "manifest-list-y"))
        .isInstanceOf(BasaltException.class)
        .hasMessageStartingWith("Failed to read manifest list manifest-list-y: ")
        .cause()
        .isNotNull();
  }

  @Test
  void otherVersionsAreRejected() {
    assertThatThrownBy(() -> read(AvroTestFiles.withVersion(1), "manifest-list-v1"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read manifest list manifest-list-v1: unsupported format version 1"
                + " (expected 2)");
  }

  @Test
  void missingStatsRecordNamesTheField() {
    Schema schema =
        AvroSchemas.record(
            "record",
            List.of(
                AvroSchemas.required("_VERSION", AvroSchemas.intType()),
                AvroSchemas.required("_FILE_NAME", AvroSchemas.stringType()),
                AvroSchemas.required("_FILE_SIZE", AvroSchemas.longType()),
                AvroSchemas.required("_NUM_ADDED_FILES", AvroSchemas.longType()),
                AvroSchemas.required("_NUM_DELETED_FILES", AvroSchemas.longType())));
    GenericRecord row = new org.apache.avro.generic.GenericData.Record(schema);
    row.put("_VERSION", 2);
    row.put("_FILE_NAME", "m");
    row.put("_FILE_SIZE", 1L);
    row.put("_NUM_ADDED_FILES", 1L);
    row.put("_NUM_DELETED_FILES", 0L);

    assertThatThrownBy(() -> read(AvroTestFiles.write(schema, List.of(row)), "old-list"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read manifest list old-list: required field _PARTITION_STATS of record is"
                + " missing or null");
  }
}
