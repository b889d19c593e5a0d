package io.basalt.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.schema.SchemaChange.AddColumn;
import io.basalt.schema.SchemaChange.DropColumn;
import io.basalt.schema.SchemaChange.Position;
import io.basalt.schema.SchemaChange.RenameColumn;
import io.basalt.schema.SchemaChange.UpdateColumnComment;
import io.basalt.schema.SchemaChange.UpdateColumnNullability;
import io.basalt.schema.SchemaChange.UpdateColumnPosition;
import io.basalt.schema.SchemaChange.UpdateColumnType;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class SchemaEvolutionTest {
  private static final String TABLE = "db.t";

  /** id=0 (pk), v=1, s=2 {a=3}, dt=4 (partition, pk); highest id 4. */
  private static final TableSchema BASE =
      SchemaFactory.create(
          0,
          new StructType()
              .add("id", DataTypes.IntegerType)
              .add("v", DataTypes.IntegerType)
              .add("s", new StructType().add("a", DataTypes.FloatType))
              .add("dt", DataTypes.StringType),
          List.of("dt"),
          List.of("dt", "id"),
          Map.of("bucket", "1"),
          null);

  private static TableSchema apply(SchemaChange... changes) {
    return SchemaEvolution.apply(BASE, List.of(changes), TABLE, 1, 42);
  }

  private static List<String> names(TableSchema schema) {
    return schema.fields().stream().map(DataField::name).toList();
  }

  @Test
  void addTakesTheNextIdsAndKeepsTheRest() {
    TableSchema next =
        apply(
            new AddColumn(
                List.of("x"), new StructType().add("p", DataTypes.IntegerType), true, "new", null),
            new AddColumn(List.of("s", "b"), DataTypes.StringType, true, null, null));

    assertThat(next.id()).isEqualTo(1);
    assertThat(next.timeMillis()).isEqualTo(42);
    assertThat(names(next)).containsExactly("id", "v", "s", "dt", "x");
    assertThat(next.field("x").id()).isEqualTo(5);
    assertThat(next.field("x").description()).isEqualTo("new");
    StructField p = ((StructType) next.field("x").type()).fields()[0];
    assertThat(DataField.fieldId(p)).isEqualTo(6);
    StructField b = ((StructType) next.field("s").type()).fields()[1];
    assertThat(b.name()).isEqualTo("b");
    assertThat(DataField.fieldId(b)).isEqualTo(7);
    assertThat(next.highestFieldId()).isEqualTo(7);
    assertThat(next.primaryKeys()).isEqualTo(BASE.primaryKeys());
    assertThat(next.options()).isEqualTo(BASE.options());
  }

  @Test
  void renameKeepsTheIdAndDropRetiresIt() {
    TableSchema renamed =
        apply(new RenameColumn(List.of("v"), "w"), new RenameColumn(List.of("s", "a"), "aa"));
    assertThat(renamed.field("w").id()).isEqualTo(1);
    assertThat(DataField.fieldId(((StructType) renamed.field("s").type()).fields()[0]))
        .isEqualTo(3);
    assertThat(((StructType) renamed.field("s").type()).fieldNames()).containsExactly("aa");

    TableSchema readded =
        apply(
            new DropColumn(List.of("v")),
            new AddColumn(List.of("v"), DataTypes.StringType, true, null, null));
    assertThat(readded.field("v").id()).isEqualTo(5);
    assertThat(readded.field("v").type()).isEqualTo(DataTypes.StringType);
    assertThat(readded.highestFieldId()).isEqualTo(5);
  }

  @Test
  void typesChangeAlongPaimonsCastRules() {
    TableSchema next =
        apply(
            new UpdateColumnType(List.of("v"), DataTypes.LongType),
            new UpdateColumnType(List.of("s", "a"), DataTypes.DoubleType));
    assertThat(next.field("v").type()).isEqualTo(DataTypes.LongType);
    assertThat(next.field("v").id()).isEqualTo(1);
    assertThat(((StructType) next.field("s").type()).fields()[0].dataType())
        .isEqualTo(DataTypes.DoubleType);

    assertThat(TypeWidening.isAllowed(DataTypes.ByteType, DataTypes.LongType)).isTrue();
    assertThat(
            TypeWidening.isAllowed(
                DataTypes.createDecimalType(5, 2), DataTypes.createDecimalType(20, 2)))
        .isTrue();
    assertThat(
            TypeWidening.isAllowed(
                DataTypes.createDecimalType(5, 2), DataTypes.createDecimalType(10, 3)))
        .isFalse();
    assertThat(TypeWidening.isAllowed(DataTypes.LongType, DataTypes.IntegerType)).isFalse();
    // Paimon's cast rules, not only widening: INT to STRING and back, BIGINT to DOUBLE
    assertThat(
            apply(
                    new UpdateColumnType(List.of("v"), DataTypes.StringType),
                    new UpdateColumnType(List.of("s", "a"), DataTypes.IntegerType))
                .field("v")
                .type())
        .isEqualTo(DataTypes.StringType);
    assertThatThrownBy(
            () ->
                apply(
                    new UpdateColumnType(
                        List.of("v"), DataTypes.createArrayType(DataTypes.IntegerType))))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "Cannot change column 'v' of table db.t from INT to ARRAY<INT>: Paimon's cast rules"
                + " have no conversion of INT values to ARRAY<INT>");
    assertThatThrownBy(() -> apply(new UpdateColumnType(List.of("v"), DataTypes.DateType)))
        .hasMessageContaining("from INT to DATE: Paimon's cast rules have no conversion");
  }

  @Test
  void defaultsAreSetDroppedAndStoredAsPaimonsDefaultValue() {
    TableSchema next =
        apply(
            new SchemaChange.UpdateColumnDefault(List.of("v"), "7"),
            new UpdateColumnType(List.of("v"), DataTypes.LongType));
    assertThat(next.field("v").defaultValue()).isEqualTo("7");
    String json = SchemaParser.toJson(next);
    assertThat(json).contains("\"defaultValue\" : \"7\"");
    assertThat(SchemaParser.parse(json, "schema-1").field("v").defaultValue()).isEqualTo("7");
    TableSchema dropped =
        SchemaEvolution.apply(
            next, List.of(new SchemaChange.UpdateColumnDefault(List.of("v"), null)), TABLE, 2, 43);
    assertThat(dropped.field("v").defaultValue()).isNull();
    assertThat(SchemaParser.toJson(dropped)).doesNotContain("defaultValue");
    assertThatThrownBy(() -> apply(new SchemaChange.UpdateColumnDefault(List.of("s", "a"), "1.0")))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Cannot set a DEFAULT on field 's.a' of table db.t: only top-level columns have"
                + " defaults. Fix: set it on a top-level column.");
  }

  @Test
  void fieldsOfStructsInArraysAndMapsKeepTheirIds() {
    TableSchema base =
        SchemaEvolution.apply(
            BASE,
            List.of(
                new AddColumn(
                    List.of("arr"),
                    DataTypes.createArrayType(new StructType().add("a", DataTypes.IntegerType)),
                    true,
                    null,
                    null)),
            TABLE,
            1,
            42);
    // arr = 5, arr.element.a = 6
    TableSchema next =
        SchemaEvolution.apply(
            base,
            List.of(
                new AddColumn(
                    List.of("arr", "element", "b"), DataTypes.StringType, true, null, null),
                new RenameColumn(List.of("arr", "element", "a"), "aa"),
                new UpdateColumnType(List.of("arr", "element", "aa"), DataTypes.LongType)),
            TABLE,
            2,
            43);
    StructType element =
        (StructType)
            ((org.apache.spark.sql.types.ArrayType) next.field("arr").type()).elementType();
    assertThat(element.fieldNames()).containsExactly("aa", "b");
    assertThat(DataField.fieldId(element.fields()[0])).isEqualTo(6);
    assertThat(DataField.fieldId(element.fields()[1])).isEqualTo(7);
    assertThat(element.fields()[0].dataType()).isEqualTo(DataTypes.LongType);
    assertThat(next.highestFieldId()).isEqualTo(7);
    assertThatThrownBy(
            () ->
                SchemaEvolution.apply(
                    next, List.of(new DropColumn(List.of("arr", "value", "b"))), TABLE, 3, 44))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Column 'arr' of table db.t has type ARRAY<STRUCT<aa: BIGINT, b: STRING>>, not a"
                + " struct, so it has no field 'value'. Fix: name a struct field (an ARRAY's"
                + " struct elements are 'arr.element.<field>', a MAP's struct values"
                + " 'arr.value.<field>').");
  }

  @Test
  void explicitCastsCanBeDisabled() {
    TableSchema strict =
        BASE.withOptions(Map.of("bucket", "1", "disable-explicit-type-casting", "true"), 0, 1);
    List<SchemaChange> narrowing = List.of(new UpdateColumnType(List.of("v"), DataTypes.ShortType));
    assertThatThrownBy(() -> SchemaEvolution.apply(strict, narrowing, TABLE, 1, 42))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "Cannot change column 'v' of table db.t from INT to SMALLINT: the change may lose"
                + " information and the table sets 'disable-explicit-type-casting' = 'true'."
                + " Fix: ALTER TABLE db.t SET TBLPROPERTIES ('disable-explicit-type-casting' ="
                + " 'false') first");
    TableSchema widened =
        SchemaEvolution.apply(
            strict,
            List.of(new UpdateColumnType(List.of("v"), DataTypes.DoubleType)),
            TABLE,
            1,
            42);
    assertThat(widened.field("v").type()).isEqualTo(DataTypes.DoubleType);
    assertThat(SchemaEvolution.apply(BASE, narrowing, TABLE, 1, 42).field("v").type())
        .isEqualTo(DataTypes.ShortType);
  }

  @Test
  void commentsNullabilityAndPositions() {
    TableSchema next =
        apply(
            new UpdateColumnComment(List.of("v"), "the v"),
            new UpdateColumnComment(List.of("s", "a"), "the a"),
            new AddColumn(List.of("f"), DataTypes.IntegerType, true, null, Position.FIRST),
            new AddColumn(List.of("m"), DataTypes.IntegerType, true, null, Position.after("v")),
            new UpdateColumnPosition(List.of("dt"), Position.after("f")));
    assertThat(next.field("v").description()).isEqualTo("the v");
    StructField a = ((StructType) next.field("s").type()).fields()[0];
    assertThat(a.metadata().getString("comment")).isEqualTo("the a");
    assertThat(DataField.fieldId(a)).isEqualTo(3);
    assertThat(names(next)).containsExactly("f", "dt", "id", "v", "m", "s");
    assertThat(next.field("dt").id()).isEqualTo(4);

    TableSchema nullable =
        SchemaEvolution.apply(
            next, List.of(new UpdateColumnNullability(List.of("v"), true)), TABLE, 2, 1);
    assertThat(nullable.field("v").nullable()).isTrue();
  }

  @Test
  void changesKeepAPaimonTimestampPrecision() {
    TableSchema millis =
        SchemaParser.parse(
            """
            {"id": 0, "fields": [{"id": 0, "name": "ts", "type": "TIMESTAMP(3)"},
               {"id": 1, "name": "v", "type": "INT"}],
             "highestFieldId": 1, "partitionKeys": [], "primaryKeys": [], "options": {}}""",
            "schema-0");
    TableSchema next =
        SchemaEvolution.apply(
            millis,
            List.of(
                new UpdateColumnComment(List.of("ts"), "event time"),
                new RenameColumn(List.of("v"), "w"),
                new UpdateColumnNullability(List.of("ts"), true)),
            TABLE,
            1,
            1);
    assertThat(next.field("ts").timestampPrecision()).isEqualTo(3);
    assertThat(next.field("ts").description()).isEqualTo("event time");
    assertThat(SchemaParser.toJson(next)).contains("\"TIMESTAMP(3)\"");
  }

  @Test
  void keysAndPartitionsAreFixed() {
    // as in Paimon, a key column that is not a partition column renames, and the key with it
    TableSchema renamedKey = apply(new RenameColumn(List.of("id"), "key"));
    assertThat(renamedKey.primaryKeys()).containsExactly("dt", "key");
    assertThat(renamedKey.field("key").id()).isEqualTo(0);
    assertThatThrownBy(() -> apply(new RenameColumn(List.of("dt"), "day")))
        .hasMessageContaining("Cannot rename column 'dt' of table db.t: it is a partition column");
    assertThatThrownBy(() -> apply(new DropColumn(List.of("dt"))))
        .hasMessageContaining("Cannot drop column 'dt' of table db.t: it is a primary-key column");
    assertThatThrownBy(() -> apply(new UpdateColumnType(List.of("id"), DataTypes.LongType)))
        .hasMessageContaining(
            "Cannot change the type of column 'id' of table db.t: it is a primary-key column");
    TableSchema append =
        SchemaFactory.create(
            0,
            new StructType().add("p", DataTypes.StringType).add("v", DataTypes.IntegerType),
            List.of("p"),
            List.of(),
            Map.of("bucket-key", "v", "bucket", "2"),
            null);
    assertThatThrownBy(
            () ->
                SchemaEvolution.apply(
                    append, List.of(new RenameColumn(List.of("p"), "q")), TABLE, 1, 1))
        .hasMessageContaining("Cannot rename column 'p' of table db.t: it is a partition column");
    assertThatThrownBy(
            () ->
                SchemaEvolution.apply(
                    append,
                    List.of(new UpdateColumnType(List.of("v"), DataTypes.LongType)),
                    TABLE,
                    1,
                    1))
        .hasMessageContaining(
            "Cannot change the type of column 'v' of table db.t: option 'bucket-key' names it,"
                + " and the bucket of every stored row was computed from the value in its current"
                + " type");
  }

  @Test
  void invalidChangesNameTheColumn() {
    assertThatThrownBy(() -> apply(new DropColumn(List.of("v")), new DropColumn(List.of("s"))))
        .hasMessageContaining(
            "Cannot drop column 's' of table db.t: it is the last column that is neither a"
                + " primary-key nor a partition column");
    assertThatThrownBy(() -> apply(new DropColumn(List.of("s", "a"))))
        .hasMessageContaining(
            "Cannot drop column 's.a' of table db.t: it is the last field of struct 's'");
    assertThatThrownBy(() -> apply(new DropColumn(List.of("nope"))))
        .hasMessageContaining(
            "Column 'nope' does not exist in table db.t; its columns are id, v, s, dt");
    assertThatThrownBy(
            () -> apply(new AddColumn(List.of("v"), DataTypes.IntegerType, true, null, null)))
        .hasMessageContaining("Cannot add column 'v' to table db.t: a column of that name exists");
    assertThatThrownBy(
            () -> apply(new AddColumn(List.of("n"), DataTypes.IntegerType, false, null, null)))
        .hasMessageContaining("Cannot add column 'n' to table db.t as NOT NULL");
    assertThatThrownBy(
            () -> apply(new AddColumn(List.of("v", "x"), DataTypes.IntegerType, true, null, null)))
        .hasMessageContaining(
            "Column 'v' of table db.t has type INT, not a struct, so it has no field 'x'");
    assertThatThrownBy(
            () ->
                apply(
                    new AddColumn(
                        List.of("n"), DataTypes.IntegerType, true, null, Position.after("zz"))))
        .hasMessageContaining("Cannot place column 'n' of table db.t after 'zz': no such column");
    assertThatThrownBy(() -> apply(new RenameColumn(List.of("v"), "s")))
        .hasMessageContaining(
            "Cannot rename column 'v' of table db.t to 's': a column of that name exists");
    assertThatThrownBy(() -> apply(new UpdateColumnNullability(List.of("v"), false)))
        .hasMessageContaining("Cannot make column 'v' of table db.t NOT NULL");
  }
}
