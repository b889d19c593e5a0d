package io.basalt.merge.aggregate;

import static io.basalt.merge.aggregate.AggTestSupport.create;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.VarcharType;
import org.junit.jupiter.api.Test;

/** Every function accepts exactly the types of the table and names them otherwise. */
class TypeValidationTest {
  private static final StructType ELEMENT =
      new StructType(
          new StructField[] {
            new StructField("id", DataTypes.IntegerType, true, Metadata.empty()),
            new StructField("name", DataTypes.StringType, true, Metadata.empty())
          });

  // Labels used below to state the table independently of the implementation.
  private static final Map<String, DataType> TYPES =
      Map.ofEntries(
          Map.entry("DECIMAL", DataTypes.createDecimalType(10, 2)),
          Map.entry("TINYINT", DataTypes.ByteType),
          Map.entry("SMALLINT", DataTypes.ShortType),
          Map.entry("INT", DataTypes.IntegerType),
          Map.entry("BIGINT", DataTypes.LongType),
          Map.entry("FLOAT", DataTypes.FloatType),
          Map.entry("DOUBLE", DataTypes.DoubleType),
          Map.entry("CHAR", new CharType(3)),
          Map.entry("VARCHAR", new VarcharType(10)),
          Map.entry("STRING", DataTypes.StringType),
          Map.entry("DATE", DataTypes.DateType),
          Map.entry("TIMESTAMP", DataTypes.TimestampType),
          Map.entry("TIMESTAMP_NTZ", DataTypes.TimestampNTZType),
          Map.entry("BOOLEAN", DataTypes.BooleanType),
          Map.entry("BINARY", DataTypes.BinaryType),
          Map.entry("ARRAY<STRUCT>", DataTypes.createArrayType(ELEMENT)),
          Map.entry("ARRAY<INT>", DataTypes.createArrayType(DataTypes.IntegerType)),
          Map.entry("MAP", DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType)),
          Map.entry("STRUCT", ELEMENT));

  private static final Set<String> NUMERIC =
      Set.of("DECIMAL", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE");
  private static final Set<String> COMPARABLE =
      Set.of(
          "CHAR",
          "VARCHAR",
          "STRING",
          "DECIMAL",
          "TINYINT",
          "SMALLINT",
          "INT",
          "BIGINT",
          "FLOAT",
          "DOUBLE",
          "DATE",
          "TIMESTAMP",
          "TIMESTAMP_NTZ");

  private static final Map<String, Set<String>> SUPPORTED =
      Map.ofEntries(
          Map.entry("sum", NUMERIC),
          Map.entry("product", NUMERIC),
          Map.entry("max", COMPARABLE),
          Map.entry("min", COMPARABLE),
          Map.entry("first_value", TYPES.keySet()),
          Map.entry("first_non_null_value", TYPES.keySet()),
          Map.entry("first_not_null_value", TYPES.keySet()),
          Map.entry("last_value", TYPES.keySet()),
          Map.entry("last_non_null_value", TYPES.keySet()),
          Map.entry("listagg", Set.of("STRING", "VARCHAR")),
          Map.entry("bool_and", Set.of("BOOLEAN")),
          Map.entry("bool_or", Set.of("BOOLEAN")),
          Map.entry("rbm32", Set.of("BINARY")),
          Map.entry("rbm64", Set.of("BINARY")),
          Map.entry("nested_update", Set.of("ARRAY<STRUCT>")),
          Map.entry("collect", Set.of("ARRAY<STRUCT>", "ARRAY<INT>")),
          Map.entry("merge_map", Set.of("MAP")));

  @Test
  void everyFunctionAcceptsExactlyItsTypes() {
    for (Map.Entry<String, Set<String>> function : SUPPORTED.entrySet()) {
      for (Map.Entry<String, DataType> type : TYPES.entrySet()) {
        String name = function.getKey();
        if (function.getValue().contains(type.getKey())) {
          assertThat(create(name, type.getValue()).type())
              .as("%s on %s", name, type.getKey())
              .isEqualTo(type.getValue());
        } else {
          assertThatThrownBy(() -> create(name, type.getValue()))
              .as("%s on %s", name, type.getKey())
              .isInstanceOf(BasaltException.class)
              .hasMessageContaining("does not support column 'f' of type " + type.getValue().sql())
              .hasMessageContaining("in table db.t: it supports");
        }
      }
    }
  }

  @Test
  void nestedPartialUpdateAcceptsOnlyArraysOfStructs() {
    for (Map.Entry<String, DataType> type : TYPES.entrySet()) {
      if (type.getKey().equals("ARRAY<STRUCT>")) {
        assertThat(create("nested_partial_update", type.getValue(), "fields.f.nested-key", "id"))
            .isNotNull();
      } else {
        assertThatThrownBy(() -> create("nested_partial_update", type.getValue()))
            .as(type.getKey())
            .isInstanceOf(BasaltException.class)
            .hasMessageContaining("it supports ARRAY<STRUCT<...>>");
      }
    }
  }

  @Test
  void messagesListTheSupportedTypes() {
    List<String[]> cases =
        List.of(
            new String[] {
              "max",
              "BOOLEAN",
              "CHAR, VARCHAR, STRING, DECIMAL, TINYINT, SMALLINT,"
                  + " INT, BIGINT, FLOAT, DOUBLE, DATE, TIMESTAMP, TIMESTAMP_NTZ"
            },
            new String[] {"listagg", "CHAR", "STRING (and VARCHAR)"},
            new String[] {"bool_or", "INT", "BOOLEAN"},
            new String[] {"rbm64", "STRING", "BINARY"},
            new String[] {"collect", "MAP", "ARRAY"},
            new String[] {"merge_map", "ARRAY<INT>", "MAP"},
            new String[] {"nested_update", "ARRAY<INT>", "ARRAY<STRUCT<...>>"});
    for (String[] c : cases) {
      assertThatThrownBy(() -> create(c[0], TYPES.get(c[1])))
          .isInstanceOf(BasaltException.class)
          .hasMessage(
              "Aggregate function '%s' does not support column 'f' of type %s in table db.t: it"
                  + " supports %s. Fix: choose another function in"
                  + " 'fields.f.aggregate-function' or change the column type.",
              c[0], TYPES.get(c[1]).sql(), c[2]);
    }
  }

  @Test
  void nestedKeyOnAnotherFunctionIsRejected() {
    assertThatThrownBy(() -> create("sum", DataTypes.IntegerType, "fields.f.nested-key", "id"))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Option 'fields.f.nested-key' of table db.t applies only to columns of type"
                + " ARRAY<STRUCT<...>> aggregated with nested_update or nested_partial_update, but"
                + " column 'f' is INT with function 'sum'. Fix: remove the option or set"
                + " 'fields.f.aggregate-function' to nested_update.");
    assertThatThrownBy(
            () ->
                create("collect", DataTypes.createArrayType(ELEMENT), "fields.f.nested-key", "id"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("with function 'collect'");
  }
}
