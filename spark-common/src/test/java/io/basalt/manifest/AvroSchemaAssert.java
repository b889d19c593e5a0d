package io.basalt.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.avro.Schema;

/** Assertions on manifest Avro schemas, comparing against the JSON the notes describe. */
final class AvroSchemaAssert {
  private AvroSchemaAssert() {}

  static List<String> names(Schema record) {
    return record.getFields().stream().map(Schema.Field::name).toList();
  }

  static void typeOf(Schema record, String field, String expectedJson) {
    assertThat(record.getField(field).schema().toString()).as(field).isEqualTo(expectedJson);
  }

  static void assertSimpleStats(Schema stats) {
    assertThat(names(stats)).containsExactly("_MIN_VALUES", "_MAX_VALUES", "_NULL_COUNTS");
    typeOf(stats, "_MIN_VALUES", "\"bytes\"");
    typeOf(stats, "_MAX_VALUES", "\"bytes\"");
    typeOf(stats, "_NULL_COUNTS", "[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}]");
  }
}
