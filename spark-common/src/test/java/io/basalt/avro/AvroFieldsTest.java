package io.basalt.avro;

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
      Schema.createRecord(
          "row",
          null,
          "org.apache.paimon.avro.generated",
          false,
          List.of(
              new Schema.Field("s", Schema.create(Schema.Type.STRING)),
              new Schema.Field("l", Schema.create(Schema.Type.LONG)),
              new Schema.Field("b", Schema.create(Schema.Type.BYTES)),
              new Schema.Field(
                  "o",
                  Schema.createUnion(
                      Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.LONG)),
                  null,
                  Schema.Field.NULL_DEFAULT_VALUE)));

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
