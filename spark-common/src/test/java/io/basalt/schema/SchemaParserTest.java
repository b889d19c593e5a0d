package io.basalt.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.data.TimestampPrecision;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class SchemaParserTest {

  private static final String ORDERS =
      """
      {
        "version" : 3,
        "id" : 0,
        "fields" : [ {
          "id" : 0,
          "name" : "order_id",
          "type" : "BIGINT NOT NULL"
        }, {
          "id" : 1,
          "name" : "user_name",
          "type" : "STRING",
          "description" : "who ordered"
        }, {
          "id" : 2,
          "name" : "tags",
          "type" : {
            "type" : "ROW",
            "fields" : [ {
              "id" : 3,
              "name" : "k",
              "type" : "STRING NOT NULL",
              "description" : "tag key"
            }, {
              "id" : 4,
              "name" : "v",
              "type" : {
                "type" : "ARRAY NOT NULL",
                "element" : "INT"
              }
            } ]
          }
        }, {
          "id" : 5,
          "name" : "m",
          "type" : {
            "type" : "MAP",
            "key" : "STRING NOT NULL",
            "value" : "DECIMAL(10, 2) NOT NULL"
          }
        } ],
        "highestFieldId" : 5,
        "partitionKeys" : [ "dt" ],
        "primaryKeys" : [ "order_id", "dt" ],
        "options" : {
          "bucket" : "2",
          "file.format" : "parquet"
        },
        "comment" : "all orders",
        "timeMillis" : 1704067200000
      }""";

  @Test
  void parsesPaimonSchemaAndWritesItBackIdentically() {
    TableSchema schema = SchemaParser.parse(ORDERS, "schema-0");

    assertThat(schema.version()).isEqualTo(3);
    assertThat(schema.highestFieldId()).isEqualTo(5);
    assertThat(schema.partitionKeys()).containsExactly("dt");
    assertThat(schema.primaryKeys()).containsExactly("order_id", "dt");
    assertThat(schema.options()).isEqualTo(Map.of("bucket", "2", "file.format", "parquet"));
    assertThat(schema.comment()).isEqualTo("all orders");
    assertThat(schema.timeMillis()).isEqualTo(1704067200000L);
    assertThat(schema.fields().get(0))
        .isEqualTo(new DataField(0, "order_id", DataTypes.LongType, false, null));
    assertThat(schema.fields().get(1).description()).isEqualTo("who ordered");

    StructType tags = (StructType) schema.fields().get(2).type();
    assertThat(DataField.fieldId(tags.fields()[0])).isEqualTo(3);
    assertThat(tags.fields()[0].nullable()).isFalse();
    assertThat(tags.fields()[0].metadata().getString("comment")).isEqualTo("tag key");
    assertThat(DataField.fieldId(tags.fields()[1])).isEqualTo(4);
    assertThat(tags.fields()[1].dataType()).isEqualTo(new ArrayType(DataTypes.IntegerType, true));
    assertThat(tags.fields()[1].nullable()).isFalse();
    assertThat(schema.fields().get(3).type())
        .isEqualTo(new MapType(DataTypes.StringType, DataTypes.createDecimalType(10, 2), false));

    assertThat(SchemaParser.toJson(schema)).isEqualTo(ORDERS);
  }

  @Test
  void omitsNullCommentAndRoundTrips() {
    TableSchema schema =
        new TableSchema(
            3,
            7,
            List.of(new DataField(0, "a", DataTypes.IntegerType, true, null)),
            0,
            List.of(),
            List.of(),
            Map.of(),
            null,
            42L);
    String json = SchemaParser.toJson(schema);
    assertThat(json).doesNotContain("comment");
    assertThat(json.indexOf("\"options\"")).isLessThan(json.indexOf("\"timeMillis\""));
    assertThat(SchemaParser.parse(json, "schema-7")).isEqualTo(schema);
  }

  @Test
  void keepsPaimonTimestampPrecisionsThroughParseAndWrite() {
    String json =
        """
        {"id": 0, "fields": [
           {"id": 0, "name": "ts", "type": "TIMESTAMP(3) NOT NULL"},
           {"id": 1, "name": "ltz", "type": "TIMESTAMP(0) WITH LOCAL TIME ZONE"},
           {"id": 2, "name": "nanos", "type": "TIMESTAMP(9)"},
           {"id": 3, "name": "plain", "type": "TIMESTAMP"}],
         "highestFieldId": 3, "partitionKeys": [], "primaryKeys": ["ts"], "options": {}}""";
    TableSchema schema = SchemaParser.parse(json, "schema-0");
    assertThat(schema.fields().stream().map(DataField::timestampPrecision))
        .containsExactly(3, 0, 9, 6);
    assertThat(schema.rowType().fields()[0].metadata().getLong(TimestampPrecision.METADATA_KEY))
        .isEqualTo(3);
    assertThat(schema.rowType().fields()[3].metadata().contains(TimestampPrecision.METADATA_KEY))
        .isFalse();
    String written = SchemaParser.toJson(schema);
    assertThat(written)
        .contains("\"TIMESTAMP(3) NOT NULL\"")
        .contains("\"TIMESTAMP(0) WITH LOCAL TIME ZONE\"")
        .contains("\"TIMESTAMP(9)\"")
        .contains("\"TIMESTAMP(6)\"");
    assertThat(SchemaParser.parse(written, "schema-0")).isEqualTo(schema);
    // the key of the key-value files keeps the precision its min/max bytes depend on
    assertThat(
            new io.basalt.mergetree.KeyValueLayout(schema)
                .keyType()
                .fields()[0]
                .metadata()
                .getLong(TimestampPrecision.METADATA_KEY))
        .isEqualTo(3);
  }

  @Test
  void blobColumnsAreWrittenWithPaimonsBlobTypeAndReadAsBinary() {
    String json =
        """
        {"id": 0, "fields": [
           {"id": 0, "name": "id", "type": "INT"},
           {"id": 1, "name": "pic", "type": "BLOB"},
           {"id": 2, "name": "pics", "type": {"type": "ARRAY", "element": "BLOB NOT NULL"}},
           {"id": 3, "name": "named", "type": {"type": "MAP NOT NULL", "key": "STRING NOT NULL",
              "value": "BLOB"}},
           {"id": 4, "name": "raw", "type": "BYTES"}],
         "highestFieldId": 4, "partitionKeys": [], "primaryKeys": [],
         "options": {"blob-field": "pic, pics,named"}}""";
    TableSchema schema = SchemaParser.parse(json, "schema-0");
    assertThat(schema.rowType().fields()[1].dataType()).isEqualTo(DataTypes.BinaryType);
    assertThat(schema.rowType().fields()[2].dataType())
        .isEqualTo(DataTypes.createArrayType(DataTypes.BinaryType, false));
    assertThat(schema.rowType().fields()[3].dataType())
        .isEqualTo(DataTypes.createMapType(DataTypes.StringType, DataTypes.BinaryType, true));

    String written = SchemaParser.toJson(schema).replaceAll("\\s+", "");
    assertThat(written)
        .contains("\"name\":\"pic\",\"type\":\"BLOB\"")
        .contains("\"element\":\"BLOBNOTNULL\"")
        .contains("\"value\":\"BLOB\"")
        .contains("\"name\":\"raw\",\"type\":\"BYTES\"");
    assertThat(SchemaParser.parse(SchemaParser.toJson(schema), "schema-0")).isEqualTo(schema);
  }

  @Test
  void rejectsATimestampPrecisionAboveNine() {
    String json =
        """
        {"id": 0, "fields": [{"id": 0, "name": "ts", "type": "TIMESTAMP(12)"}],
         "highestFieldId": 0, "partitionKeys": [], "primaryKeys": [], "options": {}}""";
    assertThatThrownBy(() -> SchemaParser.parse(json, "schema-0"))
        .hasMessageContaining("schema-0")
        .hasMessageContaining(
            "Column ts has type TIMESTAMP(12): a timestamp's precision must be 0 to 9");
  }

  @Test
  void defaultsMissingVersionAndTimeAndIgnoresUnknownFields() {
    String json =
        """
        {"id": 1, "fields": [{"id": 0, "name": "a", "type": "INT", "defaultValue": "3"}],
         "highestFieldId": 0, "partitionKeys": [], "primaryKeys": [], "options": {},
         "somethingNew": {"x": 1}}""";
    TableSchema schema = SchemaParser.parse(json, "schema-1");
    assertThat(schema.version()).isEqualTo(1);
    assertThat(schema.timeMillis()).isZero();
    assertThat(schema.comment()).isNull();
    // a version-1 schema implied one bucket and ORC files
    assertThat(schema.options()).isEqualTo(Map.of("bucket", "1", "file.format", "orc"));
  }

  @Test
  void versionTwoImpliesOrcButKeepsBucket() {
    String json =
        """
        {"version": 2, "id": 1, "fields": [], "highestFieldId": -1, "partitionKeys": [],
         "primaryKeys": [], "options": {"bucket": "4"}, "timeMillis": 5}""";
    assertThat(SchemaParser.parse(json, "schema-1").options())
        .isEqualTo(Map.of("bucket", "4", "file.format", "orc"));
  }

  @Test
  void rejectsNewerVersion() {
    String json = ORDERS.replace("\"version\" : 3", "\"version\" : 4");
    assertThatThrownBy(() -> SchemaParser.parse(json, "schema-3"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Schema file schema-3 was written by a newer version (format 4, max supported 3)");
  }

  @Test
  void rejectsCorruptJsonNamingTheFile() {
    assertThatThrownBy(() -> SchemaParser.parse("{\"version\": 3, \"id\": ", "schema-9"))
        .isInstanceOf(BasaltException.class)
        .hasMessageStartingWith("Schema file schema-9 is not valid JSON")
        .hasCauseInstanceOf(com.fasterxml.jackson.core.JsonProcessingException.class);
    assertThatThrownBy(() -> SchemaParser.parse("[1, 2]", "schema-9"))
        .isInstanceOf(BasaltException.class)
        .hasMessage("Schema file schema-9 does not hold a JSON object");
  }

  @Test
  void rejectsMissingRequiredField() {
    assertThatThrownBy(() -> SchemaParser.parse("{\"version\": 3, \"id\": 0}", "schema-0"))
        .isInstanceOf(BasaltException.class)
        .hasMessage("Cannot read schema file schema-0: Missing required field 'fields'");
  }

  @Test
  void rejectsTimeColumnNamingIt() {
    String json = ORDERS.replace("\"type\" : \"STRING\",", "\"type\" : \"TIME(3)\",");
    assertThatThrownBy(() -> SchemaParser.parse(json, "schema-0"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Cannot read schema file schema-0: Column user_name has type TIME(3), which Spark"
                + " cannot represent; Basalt cannot read tables with TIME columns")
        .hasCauseInstanceOf(IllegalArgumentException.class);
  }
}
