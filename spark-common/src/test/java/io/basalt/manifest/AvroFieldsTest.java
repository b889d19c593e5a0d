package io.basalt.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class AvroFieldsTest {
  private static final Schema SCHEMA =
      AvroSchemas.record(
          "row",
          List.of(
              AvroSchemas.required("s", AvroSchemas.stringType()),
              AvroSchemas.required("l", AvroSchemas.longType()),
              AvroSchemas.required("b", AvroSchemas.bytesType()),
              AvroSchemas.optional("o", AvroSchemas.longType())));

  private static GenericRecord record() {
    GenericRecord record = new GenericData.Record(SCHEMA);
    record.put("s", new Utf8("text"));
    record.put("l", 5_000_000_000L);
    ByteBuffer bytes = ByteBuffer.wrap(new byte[] {9, 1, 2, 3});
    bytes.position(1);
    record.put("b", bytes);
    return record;
  }

  @Test
  void readsPresentAbsentAndNullFields() {
    GenericRecord record = record();

    assertThat(AvroFields.requiredString(record, "s")).isEqualTo("text");
    assertThat(AvroFields.requiredLong(record, "l")).isEqualTo(5_000_000_000L);
    assertThat(AvroFields.requiredBytes(record, "b")).containsExactly(1, 2, 3);
    assertThat(AvroFields.optionalLong(record, "o")).isNull();
    assertThat(AvroFields.optionalLong(record, "not_in_schema")).isNull();
    assertThat(AvroFields.optionalStrings(record, "not_in_schema")).isNull();
  }

  @Test
  void wrongTypesAndRangesNameTheField() {
    GenericRecord record = record();

    assertThatThrownBy(() -> AvroFields.requiredLong(record, "s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("field s of row holds a Utf8, expected Number");
    assertThatThrownBy(() -> AvroFields.requiredInt(record, "l"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("field l of row holds 5000000000, out of int range");
    assertThatThrownBy(() -> AvroFields.requiredString(record, "missing"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("required field missing of row is missing or null");
  }
}
