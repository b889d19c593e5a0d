package io.basalt.avro;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.utils.CloseableIterator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * Every manifest read parses a new writer schema. Avro's shared {@code GenericData} caches a fast
 * reader per schema in a map whose values point back at their weak keys, so a reader built on it
 * keeps every schema it ever saw: a long-lived driver (or the model checker) ran out of heap after
 * some ten thousand manifest reads.
 */
class AvroRowReaderMemoryTest {
  private static final Schema SCHEMA =
      Schema.createRecord(
          "row",
          null,
          "org.apache.paimon.avro.generated",
          false,
          List.of(
              new Schema.Field(AvroRowReader.VERSION, Schema.create(Schema.Type.INT)),
              new Schema.Field("v", Schema.create(Schema.Type.LONG))));

  @Test
  void aClosedReaderKeepsNoSchemaAlive() throws IOException {
    byte[] file = file();
    WeakReference<Schema> writerSchema = readOnce(file);

    for (int i = 0; i < 50 && writerSchema.get() != null; i++) {
      System.gc();
    }

    assertThat(writerSchema.get()).as("the writer schema of a closed reader").isNull();
  }

  private static WeakReference<Schema> readOnce(byte[] file) {
    Schema[] seen = new Schema[1];
    try (CloseableIterator<Long> rows =
        AvroRowReader.open(
            new ByteArrayInputStream(file),
            1,
            record -> {
              seen[0] = record.getSchema();
              return (Long) record.get("v");
            },
            "test file")) {
      assertThat(rows.next()).isEqualTo(7L);
      assertThat(rows.hasNext()).isFalse();
    }
    return new WeakReference<>(seen[0]);
  }

  private static byte[] file() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(SCHEMA))) {
      writer.create(SCHEMA, out);
      GenericRecord record = new GenericData.Record(SCHEMA);
      record.put(AvroRowReader.VERSION, 1);
      record.put("v", 7L);
      writer.append(record);
    }
    return out.toByteArray();
  }
}
