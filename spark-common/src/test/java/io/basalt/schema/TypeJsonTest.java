package io.basalt.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.io.StringWriter;
import java.util.stream.Stream;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.VarcharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TypeJsonTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static Stream<Arguments> atomicTypes() {
    return Stream.of(
        Arguments.of(DataTypes.BooleanType, "BOOLEAN"),
        Arguments.of(DataTypes.ByteType, "TINYINT"),
        Arguments.of(DataTypes.ShortType, "SMALLINT"),
        Arguments.of(DataTypes.IntegerType, "INT"),
        Arguments.of(DataTypes.LongType, "BIGINT"),
        Arguments.of(DataTypes.FloatType, "FLOAT"),
        Arguments.of(DataTypes.DoubleType, "DOUBLE"),
        Arguments.of(DataTypes.createDecimalType(38, 10), "DECIMAL(38, 10)"),
        Arguments.of(DataTypes.StringType, "STRING"),
        Arguments.of(new VarcharType(20), "VARCHAR(20)"),
        Arguments.of(new CharType(3), "CHAR(3)"),
        Arguments.of(DataTypes.BinaryType, "BYTES"),
        Arguments.of(DataTypes.DateType, "DATE"),
        Arguments.of(DataTypes.TimestampType, "TIMESTAMP(6) WITH LOCAL TIME ZONE"),
        Arguments.of(DataTypes.TimestampNTZType, "TIMESTAMP(6)"));
  }

  @ParameterizedTest
  @MethodSource("atomicTypes")
  void encodesAtomicTypesWithNullability(DataType type, String expected) throws IOException {
    assertThat(write(type, true)).isEqualTo("\"" + expected + "\"");
    assertThat(write(type, false)).isEqualTo("\"" + expected + " NOT NULL\"");
    assertThat(TypeJson.parse(new TextNode(expected), "c"))
        .isEqualTo(new TypeJson.Parsed(type, true));
    assertThat(TypeJson.parse(new TextNode(expected + " NOT NULL"), "c"))
        .isEqualTo(new TypeJson.Parsed(type, false));
  }

  @Test
  void encodesCompositeTypesAsObjects() throws IOException {
    StructType row =
        new StructType(
            new StructField[] {
              new StructField(
                  "k",
                  DataTypes.IntegerType,
                  false,
                  new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, 5).build())
            });
    DataType type =
        DataTypes.createMapType(DataTypes.StringType, DataTypes.createArrayType(row, false), true);
    String json = write(type, false);
    assertThat(json)
        .isEqualTo(
            "{\"type\":\"MAP NOT NULL\",\"key\":\"STRING NOT NULL\",\"value\":"
                + "{\"type\":\"ARRAY\",\"element\":{\"type\":\"ROW NOT NULL\",\"fields\":"
                + "[{\"id\":5,\"name\":\"k\",\"type\":\"INT NOT NULL\"}]}}}");
    assertThat(TypeJson.parse(MAPPER.readTree(json), "c"))
        .isEqualTo(new TypeJson.Parsed(type, false));
  }

  @Test
  void readsPaimonTypesBasaltDoesNotWrite() {
    assertThat(parse("VARBINARY(10)")).isEqualTo(DataTypes.BinaryType);
    assertThat(parse("BINARY(4) NOT NULL")).isEqualTo(DataTypes.BinaryType);
    assertThat(parse("TIMESTAMP(3)")).isEqualTo(DataTypes.TimestampNTZType);
    assertThat(parse("TIMESTAMP(9) WITH LOCAL TIME ZONE")).isEqualTo(DataTypes.TimestampType);
    assertThat(parse("VARCHAR(2147483647)")).isEqualTo(DataTypes.StringType);
    assertThat(parse("DECIMAL(5,2)")).isEqualTo(DataTypes.createDecimalType(5, 2));
  }

  @Test
  void rejectsUnknownTypesNamingTheColumn() {
    assertThatThrownBy(() -> parse("VARIANT"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Column c has type VARIANT, which Basalt cannot read");
    assertThatThrownBy(() -> parse("DECIMAL(40, 2)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Column c has invalid decimal type DECIMAL(40, 2)");
    assertThatThrownBy(
            () ->
                TypeJson.parse(MAPPER.readTree("{\"type\":\"MULTISET\",\"element\":\"INT\"}"), "c"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Column c has type MULTISET, which Basalt cannot read");
    assertThatThrownBy(
            () ->
                TypeJson.parse(
                    MAPPER.readTree("{\"type\":\"ARRAY\",\"element\":\"TIME(0)\"}"), "c"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Column c.element has type TIME(0)");
  }

  private static DataType parse(String text) {
    return TypeJson.parse(new TextNode(text), "c").type();
  }

  private static String write(DataType type, boolean nullable) throws IOException {
    StringWriter out = new StringWriter();
    try (JsonGenerator gen = MAPPER.getFactory().createGenerator(out)) {
      TypeJson.write(gen, type, nullable);
    }
    return out.toString();
  }

  @SuppressWarnings("unused")
  private static JsonNode tree(String json) throws IOException {
    return MAPPER.readTree(json);
  }
}
