package io.basalt.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class SchemaFactoryTest {

  private static final StructType SPARK_SCHEMA =
      new StructType()
          .add("a", DataTypes.IntegerType)
          .add("b", DataTypes.StringType, true, "the b column")
          .add("c", DataTypes.LongType)
          .add("d", DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType))
          .add(
              "tags",
              new StructType()
                  .add("k", DataTypes.StringType, true, "key")
                  .add("v", DataTypes.createArrayType(DataTypes.IntegerType)))
          .add(
              "m",
              DataTypes.createArrayType(
                  new StructType().add("x", new StructType().add("y", DataTypes.DateType))))
          .add("dt", DataTypes.StringType);

  @Test
  void assignsIdsDepthFirstLikePaimon() {
    TableSchema schema =
        SchemaFactory.create(0, SPARK_SCHEMA, List.of("dt"), List.of("a", "dt"), Map.of(), "c1");

    assertThat(schema.fields()).extracting(DataField::id).containsExactly(0, 1, 2, 3, 4, 7, 10);
    StructType tags = (StructType) schema.field("tags").type();
    assertThat(DataField.fieldId(tags.fields()[0])).isEqualTo(5);
    assertThat(DataField.fieldId(tags.fields()[1])).isEqualTo(6);
    assertThat(tags.fields()[0].metadata().getString("comment")).isEqualTo("key");
    StructType element = (StructType) ((ArrayType) schema.field("m").type()).elementType();
    StructField x = element.fields()[0];
    assertThat(DataField.fieldId(x)).isEqualTo(8);
    assertThat(DataField.fieldId(((StructType) x.dataType()).fields()[0])).isEqualTo(9);
    assertThat(schema.highestFieldId()).isEqualTo(10);
    assertThat(schema.field("d").type())
        .isEqualTo(new MapType(DataTypes.StringType, DataTypes.IntegerType, true));
    assertThat(schema.version()).isEqualTo(TableSchema.CURRENT_VERSION);
    assertThat(schema.comment()).isEqualTo("c1");
  }

  @Test
  void forcesPrimaryKeysNotNullAndKeepsComments() {
    TableSchema schema =
        SchemaFactory.create(
            3, SPARK_SCHEMA, List.of("dt"), List.of("a", "dt"), Map.of("bucket", "2"), null);
    assertThat(schema.field("a").nullable()).isFalse();
    assertThat(schema.field("dt").nullable()).isFalse();
    assertThat(schema.field("c").nullable()).isTrue();
    assertThat(schema.field("b").description()).isEqualTo("the b column");
    assertThat(schema.field("a").description()).isNull();
    assertThat(schema.id()).isEqualTo(3);
    assertThat(schema.options()).containsEntry("bucket", "2");
    TableSchema reparsed = SchemaParser.parse(SchemaParser.toJson(schema), "schema-3");
    assertThat(reparsed).isEqualTo(schema);
  }

  @Test
  void dropsForeignMetadataOfNestedFields() {
    StructType spark =
        new StructType()
            .add(
                "s",
                new StructType(
                    new StructField[] {
                      new StructField(
                          "x",
                          DataTypes.IntegerType,
                          true,
                          new MetadataBuilder().putString("other", "1").build())
                    }));
    TableSchema schema = SchemaFactory.create(0, spark, List.of(), List.of(), Map.of(), null);
    StructField x = ((StructType) schema.field("s").type()).fields()[0];
    assertThat(x.metadata().contains("other")).isFalse();
    assertThat(DataField.fieldId(x)).isEqualTo(1);
  }

  @Test
  void rejectsMissingKeyColumns() {
    assertThatThrownBy(
            () -> SchemaFactory.create(0, SPARK_SCHEMA, List.of(), List.of("zz"), Map.of(), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Primary key column zz does not exist in schema [a, b, c, d, tags, m, dt]");
    assertThatThrownBy(
            () -> SchemaFactory.create(0, SPARK_SCHEMA, List.of("p"), List.of(), Map.of(), null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Partition column p does not exist in schema [a, b, c, d, tags, m, dt]");
  }
}
