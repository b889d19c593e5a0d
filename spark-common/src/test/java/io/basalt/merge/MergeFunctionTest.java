package io.basalt.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.RowKind;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.options.Options;
import io.basalt.schema.DataField;
import io.basalt.schema.SchemaFactory;
import io.basalt.schema.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/**
 * Each merge function on hand-written versions of one key (columns id, g1, a, b, g2, c, d, s as in
 * {@link MergeEnginePropertyTest}), including the reuse contract: inputs are overwritten after use.
 */
class MergeFunctionTest {
  private long sequence;

  @Test
  void deduplicateKeepsTheNewestAndRemovesOnDelete() {
    MergeFunction merge = function(Map.of());
    assertThat(merge(merge, insert(1, 2, 3), insert(4, 5, 6))).containsExactly(4, 5, 6);
    assertThat(kind(merge, insert(1, 2, 3), delete())).isEqualTo(RowKind.DELETE);
  }

  @Test
  void deduplicateWithIgnoreDeleteKeepsTheRowBeforeTheDelete() {
    MergeFunction merge = function(Map.of("ignore-delete", "true"));
    assertThat(merge(merge, insert(1, 2, 3), delete())).containsExactly(1, 2, 3);
  }

  @Test
  void firstRowKeepsTheOldestVersionEvenAfterInputsAreReused() {
    MergeFunction merge = function(Map.of("merge-engine", "first-row", "ignore-delete", "true"));
    assertThat(merge(merge, insert(1, 2, 3), insert(4, 5, 6), delete(), insert(7, 8, 9)))
        .containsExactly(1, 2, 3);
  }

  @Test
  void firstRowWithoutIgnoreDeleteRejectsRetractions() {
    MergeFunction merge = function(Map.of("merge-engine", "first-row"));
    assertThatThrownBy(() -> merge(merge, insert(1, 2, 3), delete()))
        .hasMessageContaining("merge-engine 'first-row'")
        .hasMessageContaining("'ignore-delete' = 'true'");
  }

  @Test
  void partialUpdateFillsInNonNullValues() {
    MergeFunction merge = function(Map.of("merge-engine", "partial-update"));
    assertThat(merge(merge, insert(1, null, 3), insert(null, 5, null), insert(null, null, 9)))
        .containsExactly(1, 5, 9);
  }

  @Test
  void partialUpdateDeleteNeedsAnOption() {
    MergeFunction merge = function(Map.of("merge-engine", "partial-update"));
    assertThatThrownBy(() -> merge(merge, insert(1, 2, 3), delete()))
        .hasMessageContaining("'ignore-delete'")
        .hasMessageContaining("'partial-update.remove-record-on-delete'")
        .hasMessageContaining("sequence-group");
  }

  @Test
  void partialUpdateRemoveRecordOnDeleteStartsOver() {
    MergeFunction merge =
        function(
            Map.of(
                "merge-engine",
                "partial-update",
                "partial-update.remove-record-on-delete",
                "true"));
    assertThat(kind(merge, insert(1, 2, 3), delete())).isEqualTo(RowKind.DELETE);
    assertThat(merge(merge, insert(1, 2, 3), delete(), insert(null, 5, null)))
        .containsExactly(null, 5, null);
  }

  @Test
  void partialUpdateRemoveRecordOnDeleteIgnoresUpdateBefore() {
    MergeFunction merge =
        function(
            Map.of(
                "merge-engine",
                "partial-update",
                "partial-update.remove-record-on-delete",
                "true"));
    // alone, the -U stays a retraction (reads drop it); merged with an insert it is ignored
    InternalRow loneUpdateBefore = row(RowKind.UPDATE_BEFORE, 1, 1, null, 1, 1, 1);
    merge.reset();
    merge.add(loneUpdateBefore);
    assertThat(merge.result()).isSameAs(loneUpdateBefore);
    assertThat(
            merge(
                merge,
                insert(1, 2, 3),
                row(RowKind.UPDATE_BEFORE, 1, 1, null, 1, 2, 3),
                insert(null, 5, null)))
        .containsExactly(1, 5, 3);
  }

  @Test
  void sequenceGroupsUpdateIndependently() {
    MergeFunction merge = function(groups(Map.of()));
    // (g1, a, b, g2, c, d): g_1 newer then older; g_2 null leaves c, d alone
    Object[] result =
        mergeAll(
            merge,
            row(RowKind.INSERT, 1, 1, 1, 1, 1, 1),
            row(RowKind.INSERT, 2, 2, null, null, 2, 2),
            row(RowKind.INSERT, 1, 3, 3, 3, 3, null));
    // a newer group value overwrites with nulls too; the older g1 = 1 row does not update a, b
    assertThat(Arrays.copyOfRange(result, 1, 7)).containsExactly(2, 2, null, 3, 3, null);
  }

  @Test
  void sequenceGroupAggregatorsAlsoTakeOlderVersions() {
    MergeFunction merge =
        function(
            groups(
                Map.of(
                    "fields.b.aggregate-function", "max", "fields.d.aggregate-function", "sum")));
    Object[] result =
        mergeAll(
            merge, row(RowKind.INSERT, 2, 1, 5, 2, 1, 10), row(RowKind.INSERT, 1, 9, 7, 1, 9, 20));
    assertThat(Arrays.copyOfRange(result, 1, 7)).containsExactly(2, 1, 7, 2, 1, 30);
  }

  @Test
  void sequenceGroupRetractionClearsOrRetractsTheGroup() {
    MergeFunction merge = function(groups(Map.of("fields.d.aggregate-function", "sum")));
    Object[] result =
        mergeAll(
            merge,
            row(RowKind.INSERT, 1, 1, 1, 1, 1, 10),
            row(RowKind.UPDATE_BEFORE, 2, 1, 1, 0, 1, 4));
    // g1's retraction is newer: a, b cleared; g2's is older: c stays, d still retracts
    assertThat(Arrays.copyOfRange(result, 1, 7)).containsExactly(2, null, null, 1, 1, 6);
  }

  @Test
  void removeRecordOnSequenceGroupRemovesTheRowOnANewerDelete() {
    MergeFunction merge =
        function(groups(Map.of("partial-update.remove-record-on-sequence-group", "g1")));
    assertThat(
            kind(
                merge,
                row(RowKind.INSERT, 1, 1, 1, 1, 1, 1),
                row(RowKind.DELETE, 1, null, null, null, null, null)))
        .isEqualTo(RowKind.DELETE);
    assertThat(
            kind(
                merge,
                row(RowKind.INSERT, 2, 1, 1, 1, 1, 1),
                row(RowKind.DELETE, 1, null, null, null, null, null)))
        .isEqualTo(RowKind.INSERT);
  }

  @Test
  void aggregationFoldsEachColumnAndRetracts() {
    MergeFunction merge =
        function(
            Map.of(
                "merge-engine", "aggregation",
                "fields.a.aggregate-function", "sum",
                "fields.b.aggregate-function", "max",
                "fields.b.ignore-retract", "true",
                "fields.s.aggregate-function", "listagg",
                "fields.s.ignore-retract", "true"));
    List<InternalRow> rows = new ArrayList<>();
    rows.add(withS(row(RowKind.INSERT, 1, 10, 3, 1, 1, 1), "x"));
    rows.add(withS(row(RowKind.INSERT, 2, 5, 7, null, 2, 2), "y"));
    rows.add(withS(row(RowKind.UPDATE_BEFORE, 3, 4, 1, 1, 1, 1), null));
    Object[] result = mergeAll(merge, rows.toArray(new InternalRow[0]));
    // g1, g2, c, d default to last_non_null_value, which retracts a non-null value to null
    assertThat(Arrays.copyOfRange(result, 1, 8))
        .containsExactly(null, 11, 7, null, null, null, UTF8String.fromString("x,y"));
  }

  @Test
  void aggregationRemoveRecordOnDeleteAndNonRetractableFunctions() {
    Map<String, String> options = new HashMap<>();
    options.put("merge-engine", "aggregation");
    options.put("fields.a.aggregate-function", "max");
    MergeFunction merge = function(options);
    assertThatThrownBy(() -> merge(merge, insert(1, 2, 3), delete()))
        .hasMessageContaining("column 'a' uses aggregate function 'max'")
        .hasMessageContaining("'fields.a.ignore-retract' = 'true'")
        .hasMessageContaining("'aggregation.remove-record-on-delete' = 'true'");
    options.put("aggregation.remove-record-on-delete", "true");
    MergeFunction removing = function(options);
    assertThat(kind(removing, insert(1, 2, 3), delete())).isEqualTo(RowKind.DELETE);
    assertThat(merge(removing, insert(1, 2, 3), delete(), insert(4, null, null)))
        .containsExactly(4, null, null);
  }

  @Test
  void aLoneRetractionPassesThroughUnchanged() {
    MergeFunction merge =
        function(Map.of("merge-engine", "aggregation", "fields.a.aggregate-function", "sum"));
    InternalRow retraction = row(RowKind.UPDATE_BEFORE, 1, 4, null, 1, 5, 6);
    merge.reset();
    merge.add(retraction);
    assertThat(merge.result()).isSameAs(retraction);
    MergeFunction ignoring =
        function(Map.of("merge-engine", "aggregation", "ignore-delete", "true"));
    ignoring.reset();
    ignoring.add(row(RowKind.DELETE, 1, 4, null, 1, 5, 6));
    assertThat(ignoring.result()).isNull();
  }

  @Test
  void retractionsBeforeAnyAddFoldIntoOneRetraction() {
    MergeFunction merge =
        function(Map.of("merge-engine", "aggregation", "fields.a.aggregate-function", "sum"));
    assertThat(kind(merge, retractions())).isEqualTo(RowKind.UPDATE_BEFORE);
    // the folded -U takes 4 + 3 out of older data at once
    assertThat(mergeAll(merge, retractions())[2]).isEqualTo(7);
    // an add after them sees the value they leave, as if applied one by one
    InternalRow[] thenAdd = Arrays.copyOf(retractions(), 3);
    thenAdd[2] = insert(10, null, null);
    assertThat(merge(merge, thenAdd).get(0)).isEqualTo(3);

    MergeFunction groups = function(groups(Map.of("fields.d.aggregate-function", "sum")));
    InternalRow[] groupRetractions = {
      row(RowKind.UPDATE_BEFORE, 1, 1, 1, 1, 1, 4), row(RowKind.UPDATE_BEFORE, 2, 1, 1, 2, 1, 3)
    };
    assertThat(kind(groups, groupRetractions)).isEqualTo(RowKind.UPDATE_BEFORE);
    assertThat(Arrays.copyOfRange(mergeAll(groups, groupRetractions), 1, 7))
        .containsExactly(2, null, null, 2, null, 7);
  }

  /** Two retractions of a = 4 and a = 3. */
  private InternalRow[] retractions() {
    return new InternalRow[] {
      row(RowKind.UPDATE_BEFORE, 1, 4, null, 1, 5, 6), row(RowKind.DELETE, 1, 3, null, 1, 5, 6)
    };
  }

  // ---- helpers: a, b, c of (id, g1, a, b, g2, c, d, s) through insert(...) ----

  private static Map<String, String> groups(Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(extra);
    options.put("merge-engine", "partial-update");
    options.put("fields.g1.sequence-group", "a,b");
    options.put("fields.g2.sequence-group", "c,d");
    return options;
  }

  private MergeFunction function(Map<String, String> options) {
    Map<String, String> all = new HashMap<>(options);
    all.put("bucket", "1");
    TableSchema schema =
        SchemaFactory.create(
            0, MergeEnginePropertyTest.SCHEMA, List.of(), List.of("id"), all, null);
    MergeEngine engine = MergeEngine.of(schema, new Options(all, "table db.t"), "db.t");
    KeyValueLayout layout = new KeyValueLayout(schema);
    List<DataField> values = schema.fields();
    return engine.newMergeFunction(layout, values);
  }

  /** A version whose a, c, d are given (g1, g2 = 1 so groups apply), b = null. */
  private InternalRow insert(Integer a, Integer c, Integer d) {
    return row(RowKind.INSERT, 1, a, null, 1, c, d);
  }

  private InternalRow delete() {
    return row(RowKind.DELETE, null, null, null, null, null, null);
  }

  private InternalRow row(
      RowKind kind, Integer g1, Integer a, Integer b, Integer g2, Integer c, Integer d) {
    return new GenericInternalRow(
        new Object[] {1L, sequence++, kind.value(), 1L, g1, a, b, g2, c, d, null});
  }

  private static InternalRow withS(InternalRow row, String s) {
    row.update(10, s == null ? null : UTF8String.fromString(s));
    return row;
  }

  /** (a, c, d) of the merged row; inputs are scribbled over after each add to check copying. */
  private List<Object> merge(MergeFunction merge, InternalRow... rows) {
    Object[] all = mergeAll(merge, rows);
    return Arrays.asList(all[2], all[5], all[6]);
  }

  private RowKind kind(MergeFunction merge, InternalRow... rows) {
    merge.reset();
    for (InternalRow row : rows) {
      merge.add(row);
    }
    return RowKind.values()[merge.result().getByte(2)];
  }

  private Object[] mergeAll(MergeFunction merge, InternalRow... rows) {
    merge.reset();
    InternalRow previous = null;
    for (InternalRow row : rows) {
      merge.add(row);
      if (previous != null) {
        scribble(previous);
      }
      previous = row;
    }
    InternalRow result = merge.result();
    DataType[] types = new DataType[MergeEnginePropertyTest.SCHEMA.size()];
    Object[] values = new Object[types.length];
    for (int i = 0; i < values.length; i++) {
      DataType type = MergeEnginePropertyTest.SCHEMA.fields()[i].dataType();
      values[i] = result.isNullAt(3 + i) ? null : result.get(3 + i, type);
    }
    return values;
  }

  /** Overwrites a consumed input, as reused reader rows are. */
  private static void scribble(InternalRow row) {
    for (int i = 4; i < 10; i++) {
      row.update(i, -99);
    }
    row.update(10, UTF8String.fromString("scribbled"));
  }
}
