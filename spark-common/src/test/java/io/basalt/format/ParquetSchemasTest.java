package io.basalt.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.schema.DataField;
import io.basalt.schema.SchemaFactory;
import io.basalt.schema.TableSchema;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetSchemasTest {
  @TempDir File dir;

  private static StructField field(
      String name, org.apache.spark.sql.types.DataType type, boolean nullable, long id) {
    return new StructField(
        name, type, nullable, new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, id).build());
  }

  /** The key-value file layout of a PK table (format-notes.md section 6.2). */
  static StructType keyValueSchema(TableSchema table) {
    List<StructField> fields = new ArrayList<>();
    for (DataField key : table.fields(table.trimmedPrimaryKeys())) {
      fields.add(
          key.withIdAndName(Integer.MAX_VALUE / 2 + key.id(), "_KEY_" + key.name())
              .asNotNull()
              .toStructField());
    }
    fields.add(field("_SEQUENCE_NUMBER", DataTypes.LongType, false, Integer.MAX_VALUE - 1));
    fields.add(field("_VALUE_KIND", DataTypes.ByteType, false, Integer.MAX_VALUE - 2));
    fields.addAll(List.of(table.rowType().fields()));
    return new StructType(fields.toArray(new StructField[0]));
  }

  @Test
  void primaryKeyFileMatchesPaimonFooter() throws Exception {
    TableSchema orders =
        SchemaFactory.create(
            0,
            new StructType()
                .add("order_id", DataTypes.LongType)
                .add("user_name", DataTypes.StringType)
                .add("amount", DataTypes.LongType)
                .add("dt", DataTypes.StringType),
            List.of("dt"),
            List.of("order_id", "dt"),
            Map.of(),
            null);
    StructType fileSchema = keyValueSchema(orders);
    MessageType expected =
        MessageTypeParser.parseMessageType(
            """
            message paimon_schema {
              required int64 _KEY_order_id = 1073741823;
              required int64 _SEQUENCE_NUMBER = 2147483646;
              required int32 _VALUE_KIND (INTEGER(8,true)) = 2147483645;
              required int64 order_id = 0;
              optional binary user_name (STRING) = 1;
              optional int64 amount = 2;
              required binary dt (STRING) = 3;
            }
            """);
    assertThat(ParquetSchemas.toMessageType(fileSchema)).isEqualTo(expected);
    assertThat(ParquetSchemas.toMessageType(fileSchema).toString()).isEqualTo(expected.toString());

    Path path = new Path(new File(dir, "kv.parquet").toURI());
    ParquetRoundTripTest.write(
        path,
        fileSchema,
        List.of(
            new GenericInternalRow(
                new Object[] {
                  7L,
                  0L,
                  (byte) 0,
                  7L,
                  UTF8String.fromString("ann"),
                  12L,
                  UTF8String.fromString("2024-01-01")
                })));
    ParquetMetadata footer = footer(path);
    assertThat(footer.getFileMetaData().getSchema()).isEqualTo(expected);
    assertThat(footer.getFileMetaData().getKeyValueMetaData()).isEmpty();
    assertThat(footer.getBlocks().get(0).getColumns().get(0).getCodec().name()).isEqualTo("ZSTD");
  }

  @Test
  void nestedFieldIdsFollowPaimonFormula() throws Exception {
    StructType schema =
        SchemaFactory.create(
                0,
                new StructType()
                    .add("a", DataTypes.IntegerType)
                    .add("b", DataTypes.IntegerType)
                    .add("c", DataTypes.IntegerType)
                    .add("d", DataTypes.IntegerType)
                    .add("e", DataTypes.IntegerType)
                    .add("f", DataTypes.IntegerType)
                    .add("arr", DataTypes.createArrayType(DataTypes.LongType, false))
                    .add("m", DataTypes.createMapType(DataTypes.StringType, DataTypes.DoubleType))
                    .add(
                        "s",
                        new StructType()
                            .add("k", DataTypes.StringType)
                            .add("v", DataTypes.createArrayType(DataTypes.IntegerType))),
                List.of(),
                List.of(),
                Map.of(),
                null)
            .rowType();
    Path path = new Path(new File(dir, "ids.parquet").toURI());
    ParquetRoundTripTest.write(path, schema, List.of());
    MessageType written = footer(path).getFileMetaData().getSchema();

    GroupType arr = written.getType("arr").asGroupType();
    assertThat(arr.getId().intValue()).isEqualTo(6);
    GroupType list = arr.getType("list").asGroupType();
    assertThat(list.getType("element").getId().intValue()).isEqualTo(536877056);
    assertThat(
            list.getType("element")
                .isRepetition(org.apache.parquet.schema.Type.Repetition.REQUIRED))
        .isTrue();
    GroupType keyValue = written.getType("m").asGroupType().getType("key_value").asGroupType();
    assertThat(keyValue.getType("key").getId().intValue()).isEqualTo(536863742);
    assertThat(keyValue.getType("value").getId().intValue()).isEqualTo(536878080);
    GroupType s = written.getType("s").asGroupType();
    assertThat(s.getId().intValue()).isEqualTo(8);
    assertThat(s.getType("k").getId().intValue()).isEqualTo(9);
    GroupType v = s.getType("v").asGroupType();
    assertThat(v.getId().intValue()).isEqualTo(10);
    assertThat(v.getType("list").asGroupType().getType("element").getId().intValue())
        .isEqualTo(536870911 + 10 * 1024 + 1);
  }

  @Test
  void mapsPrimitiveTypesLikePaimon() {
    StructType schema =
        new StructType(
            new StructField[] {
              field("d9", DataTypes.createDecimalType(9, 2), true, 0),
              field("d18", DataTypes.createDecimalType(18, 0), true, 1),
              field("d38", DataTypes.createDecimalType(38, 10), false, 2),
              field("d20", DataTypes.createDecimalType(20, 1), true, 3),
              field("day", DataTypes.DateType, true, 4),
              field("ts", DataTypes.TimestampType, true, 5),
              field("ntz", DataTypes.TimestampNTZType, true, 6),
              field("small", DataTypes.ShortType, true, 7),
              field("bin", DataTypes.BinaryType, true, 8)
            });
    assertThat(ParquetSchemas.toMessageType(schema))
        .isEqualTo(
            MessageTypeParser.parseMessageType(
                """
                message paimon_schema {
                  optional int32 d9 (DECIMAL(9,2)) = 0;
                  optional int64 d18 (DECIMAL(18,0)) = 1;
                  required fixed_len_byte_array(16) d38 (DECIMAL(38,10)) = 2;
                  optional fixed_len_byte_array(9) d20 (DECIMAL(20,1)) = 3;
                  optional int32 day (DATE) = 4;
                  optional int64 ts (TIMESTAMP(MICROS,true)) = 5;
                  optional int64 ntz (TIMESTAMP(MICROS,false)) = 6;
                  optional int32 small (INTEGER(16,true)) = 7;
                  optional binary bin = 8;
                }
                """));
  }

  @Test
  void rejectsFieldsWithoutIdsAndUnsupportedTypes() {
    assertThatThrownBy(
            () -> ParquetSchemas.toMessageType(new StructType().add("x", DataTypes.IntegerType)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Field x carries no field id");
    assertThatThrownBy(
            () ->
                ParquetSchemas.toMessageType(
                    new StructType(new StructField[] {field("n", DataTypes.NullType, true, 0)})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Column n has type void, which has no Parquet mapping");
  }

  @Test
  void decimalWidthIsMinimal() {
    assertThat(ParquetSchemas.decimalBytes(19)).isEqualTo(9);
    assertThat(ParquetSchemas.decimalBytes(38)).isEqualTo(16);
    assertThat(ParquetSchemas.decimalBytes(28)).isEqualTo(12);
    assertThat(ParquetSchemas.decimalBytes(29)).isEqualTo(13);
  }

  static ParquetMetadata footer(Path path) throws Exception {
    try (ParquetFileReader reader =
        ParquetFileReader.open(HadoopInputFile.fromPath(path, new Configuration()))) {
      return reader.getFooter();
    }
  }
}
