package io.basalt.operation.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.changelog.RowDeduplicate;
import io.basalt.data.RowKind;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.options.Options;
import io.basalt.schema.SchemaFactory;
import io.basalt.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** The change a key's before and after rows make in the lookup changelog. */
class LookupChangelogTest {
  private static final StructType TYPE =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("v", DataTypes.StringType)
          .add("tags", DataTypes.createArrayType(DataTypes.StringType))
          .add("ts", DataTypes.LongType);
  private static final TableSchema SCHEMA =
      SchemaFactory.create(0, TYPE, List.of(), List.of("id"), Map.of(), null);
  private static final KeyValueLayout LAYOUT = new KeyValueLayout(SCHEMA);

  private final List<String> out = new ArrayList<>();

  private LookupChangelog changelog(RowDeduplicate deduplicate) {
    return new LookupChangelog(LAYOUT, deduplicate, row -> out.add(render(row)));
  }

  private static String render(InternalRow row) {
    return RowKind.values()[row.getByte(LAYOUT.kindIndex())].shortString()
        + ","
        + row.getLong(0)
        + ","
        + row.getLong(LAYOUT.sequenceIndex())
        + ","
        + row.getUTF8String(LAYOUT.valueOffset() + 1)
        + ","
        + row.getArray(LAYOUT.valueOffset() + 2).numElements()
        + ","
        + row.getLong(LAYOUT.valueOffset() + 3);
  }

  private static InternalRow kv(long id, long seq, RowKind kind, String v, String tag, long ts) {
    return new GenericInternalRow(
        new Object[] {
          id,
          seq,
          kind.value(),
          id,
          UTF8String.fromString(v),
          new org.apache.spark.sql.catalyst.util.GenericArrayData(
              new Object[] {UTF8String.fromString(tag)}),
          ts
        });
  }

  private static final RowDeduplicate OFF = new RowDeduplicate(false, Set.of());

  @Test
  void newKeyIsAnInsert() {
    changelog(OFF).emit(null, kv(1, 5, RowKind.INSERT, "a", "x", 1));
    assertThat(out).containsExactly("+I,1,5,a,1,1");
  }

  @Test
  void changedKeyIsUpdateBeforeThenAfter() {
    changelog(OFF)
        .emit(kv(1, 2, RowKind.INSERT, "a", "x", 1), kv(1, 5, RowKind.UPDATE_AFTER, "b", "x", 2));
    assertThat(out).containsExactly("-U,1,2,a,1,1", "+U,1,5,b,1,2");
  }

  @Test
  void removedKeyIsADeleteOfTheOldRow() {
    changelog(OFF).emit(kv(1, 2, RowKind.INSERT, "a", "x", 1), kv(1, 5, RowKind.DELETE, "", "", 0));
    assertThat(out).containsExactly("-D,1,2,a,1,1");
  }

  @Test
  void deleteOfAnAbsentKeyIsNothing() {
    changelog(OFF).emit(null, kv(1, 5, RowKind.DELETE, "a", "x", 0));
    // an older row that is itself a retraction counts as absent
    changelog(OFF).emit(kv(1, 2, RowKind.DELETE, "a", "x", 1), kv(1, 5, RowKind.DELETE, "", "", 0));
    changelog(OFF).emit(null, null);
    assertThat(out).isEmpty();
  }

  @Test
  void unchangedKeyIsAnUpdatePairWithoutRowDeduplicate() {
    changelog(OFF)
        .emit(kv(1, 2, RowKind.INSERT, "a", "x", 1), kv(1, 5, RowKind.INSERT, "a", "x", 1));
    assertThat(out).containsExactly("-U,1,2,a,1,1", "+U,1,5,a,1,1");
  }

  @Test
  void rowDeduplicateDropsEqualPairsOnly() {
    LookupChangelog dedup = changelog(new RowDeduplicate(true, Set.of()));
    // equal values (nested ones included), other sequence numbers: no change
    dedup.emit(kv(1, 2, RowKind.INSERT, "a", "x", 1), kv(1, 5, RowKind.INSERT, "a", "x", 1));
    assertThat(out).isEmpty();
    dedup.emit(kv(1, 2, RowKind.INSERT, "a", "x", 1), kv(1, 5, RowKind.INSERT, "a", "y", 1));
    assertThat(out).containsExactly("-U,1,2,a,1,1", "+U,1,5,a,1,1");
  }

  @Test
  void ignoredFieldsLeaveTheComparison() {
    LookupChangelog dedup = changelog(new RowDeduplicate(true, Set.of("ts")));
    dedup.emit(kv(1, 2, RowKind.INSERT, "a", "x", 1), kv(1, 5, RowKind.INSERT, "a", "x", 99));
    assertThat(out).isEmpty();
    dedup.emit(kv(1, 2, RowKind.INSERT, "a", "x", 1), kv(1, 5, RowKind.INSERT, "b", "x", 99));
    assertThat(out).containsExactly("-U,1,2,a,1,1", "+U,1,5,b,1,99");
  }

  @Test
  void ignoreFieldsMustNameColumns() {
    RowDeduplicate parsed =
        RowDeduplicate.of(
            SCHEMA,
            new Options(
                Map.of(
                    "changelog-producer.row-deduplicate", "true",
                    "changelog-producer.row-deduplicate-ignore-fields", " ts , v"),
                "table db.t"),
            "db.t");
    assertThat(parsed).isEqualTo(new RowDeduplicate(true, Set.of("ts", "v")));
    assertThatThrownBy(
            () ->
                RowDeduplicate.of(
                    SCHEMA,
                    new Options(
                        Map.of("changelog-producer.row-deduplicate-ignore-fields", "ts,nope"),
                        "table db.t"),
                    "db.t"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Table db.t has 'changelog-producer.row-deduplicate-ignore-fields'")
        .hasMessageContaining("column 'nope', which the table does not have")
        .hasMessageContaining("(its columns: id, v, tags, ts)")
        .hasMessageContaining("Fix: ALTER TABLE db.t SET TBLPROPERTIES");
  }
}
