package io.basalt.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.schema.SchemaChange.AddColumn;
import io.basalt.schema.SchemaChange.DropColumn;
import io.basalt.schema.SchemaChange.RenameColumn;
import io.basalt.schema.SchemaChange.UpdateColumnNullability;
import io.basalt.schema.SchemaChange.UpdateColumnType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** The ALTER TABLE changes Paimon's SchemaManager allows that Basalt used to refuse. */
class AlterParityTest {
  private static final String TABLE = "db.t";

  private static TableSchema table(Map<String, String> options) {
    return SchemaFactory.create(
        0,
        new StructType()
            .add("id", DataTypes.IntegerType)
            .add("arr", new ArrayType(DataTypes.IntegerType, true))
            .add(
                "m",
                new MapType(DataTypes.StringType, new ArrayType(DataTypes.ShortType, true), true))
            .add("ts", DataTypes.IntegerType)
            .add("v", DataTypes.IntegerType)
            .add("dt", DataTypes.StringType),
        List.of("dt"),
        List.of("id", "dt"),
        options,
        null);
  }

  private static TableSchema apply(TableSchema schema, SchemaChange... changes) {
    return SchemaEvolution.apply(schema, List.of(changes), TABLE, schema.id() + 1, 1);
  }

  @Test
  void arrayElementsAndMapValuesRetypeKeepingTheColumnId() {
    TableSchema base = table(Map.of("bucket", "1"));
    TableSchema next =
        apply(
            base,
            new UpdateColumnType(List.of("arr", "element"), DataTypes.LongType),
            new UpdateColumnType(List.of("m", "value", "element"), DataTypes.StringType));
    assertThat(next.field("arr").type()).isEqualTo(new ArrayType(DataTypes.LongType, true));
    assertThat(next.field("arr").id()).isEqualTo(base.field("arr").id());
    assertThat(next.field("m").type())
        .isEqualTo(
            new MapType(DataTypes.StringType, new ArrayType(DataTypes.StringType, true), true));
    assertThat(next.highestFieldId()).isEqualTo(base.highestFieldId());
  }

  @Test
  void elementRetypesFollowTheCastRulesAndMapKeysStay() {
    TableSchema base = table(Map.of("bucket", "1"));
    assertThatThrownBy(
            () -> apply(base, new UpdateColumnType(List.of("arr", "element"), DataTypes.DateType)))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "Cannot change column 'arr.element' of table db.t from INT to DATE: Paimon's cast"
                + " rules have no conversion of INT values to DATE");
    assertThatThrownBy(
            () -> apply(base, new UpdateColumnType(List.of("m", "key"), DataTypes.BinaryType)))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Cannot change the type of 'm.key' of table db.t: the keys of a MAP keep their type"
                + " (as in Paimon, only an ARRAY's element and a MAP's value can change). Fix:"
                + " add a new MAP column with the key type you need and copy the entries into"
                + " it.");
  }

  @Test
  void nestedColumnsBecomeStrings() {
    TableSchema next =
        apply(
            table(Map.of("bucket", "1")),
            new UpdateColumnType(List.of("arr"), DataTypes.StringType),
            new UpdateColumnType(List.of("m"), DataTypes.StringType));
    assertThat(next.field("arr").type()).isEqualTo(DataTypes.StringType);
    assertThat(next.field("m").type()).isEqualTo(DataTypes.StringType);
    assertThatThrownBy(
            () ->
                apply(
                    table(Map.of("bucket", "1")),
                    new UpdateColumnType(List.of("arr"), DataTypes.IntegerType)))
        .hasMessageContaining("Cannot change column 'arr' of table db.t from ARRAY<INT> to INT");
  }

  @Test
  void setNotNullFollowsPaimonsOption() {
    assertThatThrownBy(
            () ->
                apply(
                    table(Map.of("bucket", "1")), new UpdateColumnNullability(List.of("v"), false)))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Cannot make column 'v' of table db.t NOT NULL: files written before may hold NULLs"
                + " in it, and option 'alter-column-null-to-not-null.disabled' is true (the"
                + " default). Fix: make sure the column holds no NULL (UPDATE or DELETE those"
                + " rows), then ALTER TABLE db.t SET TBLPROPERTIES"
                + " ('alter-column-null-to-not-null.disabled' = 'false') and run the change"
                + " again.");
    TableSchema allowed =
        table(Map.of("bucket", "1", "alter-column-null-to-not-null.disabled", "false"));
    TableSchema next = apply(allowed, new UpdateColumnNullability(List.of("v"), false));
    assertThat(next.field("v").nullable()).isFalse();
    assertThat(apply(next, new UpdateColumnNullability(List.of("v"), true)).field("v").nullable())
        .isTrue();
  }

  @Test
  void addColumnBeforePartition() {
    TableSchema before = table(Map.of("bucket", "1", "add-column-before-partition", "true"));
    TableSchema next =
        apply(
            before,
            new AddColumn(List.of("a"), DataTypes.IntegerType, true, null, null),
            new AddColumn(
                List.of("b"), DataTypes.IntegerType, true, null, SchemaChange.Position.FIRST));
    assertThat(next.fields().stream().map(DataField::name))
        .containsExactly("b", "id", "arr", "m", "ts", "v", "a", "dt");
    TableSchema last =
        apply(
            table(Map.of("bucket", "1")),
            new AddColumn(List.of("a"), DataTypes.IntegerType, true, null, null));
    assertThat(last.fields().get(last.fields().size() - 1).name()).isEqualTo("a");
  }

  @Test
  void optionColumnsAreRenamedAlongAndRefusedWhereValuesDependOnThem() {
    Map<String, String> options = new HashMap<>();
    options.put("bucket", "1");
    options.put("sequence.field", "ts");
    options.put("fields.ts.sequence-group", "v");
    options.put("fields.v.aggregate-function", "sum");
    options.put("fields.default-aggregate-function", "last_value");
    TableSchema base = table(options);
    TableSchema renamed =
        apply(
            base,
            new RenameColumn(List.of("ts"), "seq"),
            new RenameColumn(List.of("v"), "w"),
            new RenameColumn(List.of("w"), "x"));
    assertThat(renamed.options())
        .containsEntry("sequence.field", "seq")
        .containsEntry("fields.seq.sequence-group", "x")
        .containsEntry("fields.x.aggregate-function", "sum")
        .containsEntry("fields.default-aggregate-function", "last_value")
        .doesNotContainKeys("fields.ts.sequence-group", "fields.v.aggregate-function");
    // the sequence field retypes along the cast rules (old files convert before merging)
    assertThat(
            apply(base, new UpdateColumnType(List.of("ts"), DataTypes.LongType)).field("ts").type())
        .isEqualTo(DataTypes.LongType);
    assertThatThrownBy(() -> apply(base, new DropColumn(List.of("ts"))))
        .hasMessage(
            "Cannot drop column 'ts' of table db.t: option 'sequence.field' names it. Fix: change"
                + " that option first (ALTER TABLE db.t SET TBLPROPERTIES ('sequence.field' ="
                + " ...) or UNSET it), then drop the column.");

    TableSchema append =
        SchemaFactory.create(
            0,
            new StructType().add("k", DataTypes.IntegerType).add("v", DataTypes.IntegerType),
            List.of(),
            List.of(),
            Map.of("bucket", "2", "bucket-key", "k"),
            null);
    TableSchema keyRenamed = apply(append, new RenameColumn(List.of("k"), "key"));
    assertThat(keyRenamed.options()).containsEntry("bucket-key", "key");
    assertThatThrownBy(() -> apply(append, new DropColumn(List.of("k"))))
        .hasMessage(
            "Cannot drop column 'k' of table db.t: option 'bucket-key' names it, and the option"
                + " is fixed when the table is created. Fix: create a new table without the"
                + " column and copy the data (CREATE TABLE ... AS SELECT).");
  }
}
