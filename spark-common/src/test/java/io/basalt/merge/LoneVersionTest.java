package io.basalt.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.RowKind;
import io.basalt.fs.FileIO;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.operation.read.ReadSection;
import io.basalt.operation.read.SplitRead;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which merge engines keep a key's lone version as it is ({@link MergeEngine#keepsLoneVersion}),
 * the rule that lets a key range of one sorted run be read without merging: the merge function's
 * result of one added row must be that row, and of one retraction nothing (or a retraction, which a
 * read drops).
 */
class LoneVersionTest {
  private static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("v", DataTypes.StringType)
          .add("arr", DataTypes.createArrayType(DataTypes.IntegerType));

  @TempDir Path dir;

  @Test
  void deduplicateKeepsALoneAddAndDropsALoneRetraction() {
    MergeEngine engine = engine(Map.of());
    assertThat(engine.keepsLoneVersion(true)).isTrue();
    assertThat(mergeOne(engine, RowKind.INSERT)).isEqualTo("+I 1 one [1, 1, 2]");
    assertThat(mergeOne(engine, RowKind.UPDATE_AFTER)).isEqualTo("+U 1 one [1, 1, 2]");
    assertThat(mergeOne(engine, RowKind.DELETE)).isEqualTo("-D 1 one [1, 1, 2]");
    assertThat(mergeOne(engine, RowKind.UPDATE_BEFORE)).isEqualTo("-U 1 one [1, 1, 2]");
    MergeEngine ignoring = engine(Map.of("ignore-delete", "true"));
    assertThat(ignoring.keepsLoneVersion(true)).isTrue();
    assertThat(mergeOne(ignoring, RowKind.DELETE)).isEqualTo("none");
  }

  @Test
  void firstRowKeepsALoneAddAndRejectsRetractionsUnlessIgnored() {
    MergeEngine engine = engine(Map.of("merge-engine", "first-row"));
    assertThat(mergeOne(engine, RowKind.INSERT)).isEqualTo("+I 1 one [1, 1, 2]");
    // its merge fails on a retraction: only files known to hold none may skip it
    assertThat(engine.keepsLoneVersion(true)).isFalse();
    assertThat(engine.keepsLoneVersion(false)).isTrue();
    assertThatThrownBy(() -> mergeOne(engine, RowKind.DELETE))
        .hasMessageContaining("first-row")
        .hasMessageContaining("db.t");
    MergeEngine ignoring = engine(Map.of("merge-engine", "first-row", "ignore-delete", "true"));
    assertThat(ignoring.keepsLoneVersion(true)).isTrue();
    assertThat(mergeOne(ignoring, RowKind.DELETE)).isEqualTo("none");
  }

  @Test
  void aggregationAndPartialUpdateMayChangeALoneVersion() {
    // collect with distinct removes the lone version's duplicate element
    MergeEngine aggregation =
        engine(
            Map.of(
                "merge-engine", "aggregation",
                "fields.arr.aggregate-function", "collect",
                "fields.arr.distinct", "true"));
    assertThat(aggregation.keepsLoneVersion(false)).isFalse();
    assertThat(mergeOne(aggregation, RowKind.INSERT)).isEqualTo("+I 1 one [1, 2]");
    MergeEngine partial =
        engine(
            Map.of(
                "merge-engine", "partial-update",
                "fields.v.sequence-group", "arr",
                "fields.arr.aggregate-function", "collect",
                "fields.arr.distinct", "true"));
    assertThat(partial.keepsLoneVersion(false)).isFalse();
    assertThat(mergeOne(partial, RowKind.INSERT)).isEqualTo("+I 1 one [1, 2]");
  }

  @Test
  void sectionsOfOneRunAreUnmergedOnlyWhereTheEngineKeepsLoneVersions() {
    for (String mergeEngine : new String[] {"deduplicate", "partial-update"}) {
      FileStoreTable table =
          table(
              mergeEngine,
              Map.of("merge-engine", mergeEngine, "bucket", "1", "write-only", "true"));
      write(table, RowKind.INSERT, 0, 100);
      write(table, RowKind.INSERT, 200, 210);
      write(table, RowKind.INSERT, 0, 5);
      DataSplit split = onlySplit(table);
      List<ReadSection> sections = new SplitRead(table, SCHEMA).readSections(split);
      assertThat(sections).hasSize(2);
      // keys 0-99 are in two runs, keys 200-209 in one
      assertThat(sections.get(0).unmerged()).isFalse();
      assertThat(sections.get(0).asSplit().files()).hasSize(2);
      assertThat(sections.get(1).unmerged()).isEqualTo(mergeEngine.equals("deduplicate"));
      assertThat(sections.get(1).asSplit().files()).hasSize(1);
      assertThat(sections.get(1).asSplit().rawConvertible()).isEqualTo(sections.get(1).unmerged());
      long merged = 0;
      try (SplitRead.MergedRows rows = sections.get(0).merge()) {
        while (rows.hasNext()) {
          rows.next();
          merged++;
        }
        assertThat(rows.mergedRows()).isEqualTo(5);
      }
      assertThat(merged).isEqualTo(100);
    }
  }

  /** The merge of one version of key 1 ({@code kind}, "one", [1, 1, 2]), rendered. */
  private static String mergeOne(MergeEngine engine, RowKind kind) {
    KeyValueLayout layout = new KeyValueLayout(SCHEMA_TABLE);
    MergeFunction merge = engine.newMergeFunction(layout, layout.valueFields());
    merge.reset();
    merge.add(
        new GenericInternalRow(
            new Object[] {
              1L,
              7L,
              kind.value(),
              1L,
              UTF8String.fromString("one"),
              new GenericArrayData(new Object[] {1, 1, 2})
            }));
    InternalRow result = merge.result();
    if (result == null) {
      return "none";
    }
    return RowKind.values()[result.getByte(layout.kindIndex())].shortString()
        + " "
        + result.getLong(3)
        + " "
        + result.getUTF8String(4)
        + " "
        + java.util.Arrays.toString(result.getArray(5).toIntArray());
  }

  private static final io.basalt.schema.TableSchema SCHEMA_TABLE =
      SchemaFactory.create(0, SCHEMA, List.of(), List.of("id"), Map.of(), null);

  private MergeEngine engine(Map<String, String> options) {
    return MergeEngine.of(table("e" + options.hashCode(), options));
  }

  private FileStoreTable table(String name, Map<String, String> options) {
    Map<String, String> all = new HashMap<>(options);
    all.putIfAbsent("bucket", "1");
    return FileStoreTable.create(
        FileIO.local(),
        new org.apache.hadoop.fs.Path(dir.resolve(name).toUri()),
        "db.t",
        SchemaFactory.create(0, SCHEMA, List.of(), List.of("id"), all, null));
  }

  private static void write(FileStoreTable table, RowKind kind, long from, long to) {
    TableWrite write = table.newWrite(TestTables.latestId(table), false);
    for (long id = from; id < to; id++) {
      write.write(
          new GenericInternalRow(
              new Object[] {
                id, UTF8String.fromString("v" + id), new GenericArrayData(new Object[] {1})
              }),
          kind);
    }
    table.newCommit("test").commit(write.prepareCommit(), System.nanoTime());
  }

  private static DataSplit onlySplit(FileStoreTable table) {
    List<DataSplit> splits = table.newScan().plan().splits();
    assertThat(splits).hasSize(1);
    return splits.get(0);
  }
}
