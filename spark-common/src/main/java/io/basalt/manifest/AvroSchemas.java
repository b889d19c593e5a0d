package io.basalt.manifest;

import java.util.List;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.Schema.Field;

/**
 * Builds the Avro schemas of manifest rows the way Paimon derives them from its row types
 * (format-notes.md sections 4.1 and 4.6): NOT NULL columns are plain types without default,
 * nullable ones are {@code ["null", T]} with default null, and records share Paimon's namespace.
 */
final class AvroSchemas {
  /** The namespace of every manifest record. */
  static final String NAMESPACE = "org.apache.paimon.avro.generated";

  /** The name of each file's top-level record. */
  static final String TOP_LEVEL = "record";

  private AvroSchemas() {}

  /** A record {@code name} in {@link #NAMESPACE}. */
  static Schema record(String name, List<Field> fields) {
    return Schema.createRecord(name, null, NAMESPACE, false, fields);
  }

  /** The name Paimon gives the record nested in field {@code field} of record {@code parent}. */
  static String nestedName(String parent, String field) {
    return parent + "_" + field;
  }

  /** A NOT NULL field. */
  static Field required(String name, Schema type) {
    return new Field(name, type);
  }

  /** A nullable field: {@code ["null", type]}, default null. */
  static Field optional(String name, Schema type) {
    return new Field(name, nullable(type), null, Field.NULL_DEFAULT_VALUE);
  }

  /** The union {@code ["null", type]}, null first as Paimon's reader expects. */
  static Schema nullable(Schema type) {
    return Schema.createUnion(Schema.create(Schema.Type.NULL), type);
  }

  static Schema intType() {
    return Schema.create(Schema.Type.INT);
  }

  static Schema longType() {
    return Schema.create(Schema.Type.LONG);
  }

  static Schema stringType() {
    return Schema.create(Schema.Type.STRING);
  }

  static Schema bytesType() {
    return Schema.create(Schema.Type.BYTES);
  }

  /** {@code ARRAY<STRING NOT NULL>}. */
  static Schema stringArray() {
    return Schema.createArray(stringType());
  }

  /** Paimon's {@code TIMESTAMP(3)}: a long of epoch millis with logical type timestamp-millis. */
  static Schema timestampMillis() {
    return LogicalTypes.timestampMillis().addToSchema(longType());
  }
}
