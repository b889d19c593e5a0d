package io.basalt.operation.read;

import io.basalt.deletionvectors.DeletionFile;
import io.basalt.deletionvectors.DeletionVector;
import io.basalt.manifest.DataFileMeta;
import io.basalt.merge.MergeEngine;
import io.basalt.merge.MergeFunction;
import io.basalt.mergetree.IntervalPartition;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.MergeIterator;
import io.basalt.mergetree.SequenceOrder;
import io.basalt.mergetree.compact.LevelSortedRun;
import io.basalt.schema.DataField;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Builds the merges of a primary-key split, one per key-range section of its bucket ({@link
 * IntervalPartition}), for {@link SplitRead}: the value columns to read (the query's, then what the
 * merge needs), the version order and one merge function the sections share, as they merge one
 * after another.
 */
final class MergeSections {
  private MergeSections() {}

  /** One section: its sorted runs and how to open their merge. */
  record Section(List<LevelSortedRun> runs, Supplier<MergeIterator> merge) {}

  static List<Section> of(
      SplitRead read,
      FileStoreTable table,
      StructType readType,
      DataSplit split,
      boolean emitRetractions) {
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    SequenceOrder sequence = SequenceOrder.of(table.schema(), table.options(), table.name());
    MergeEngine mergeEngine = MergeEngine.of(table);
    List<DataField> values = new ArrayList<>();
    for (StructField field : readType.fields()) {
      values.add(table.schema().field(field.name()));
    }
    // the merge may need columns the query does not select (sequence groups)
    values = mergeEngine.withMergeColumns(values);
    // sequence fields decide the merge even when the query does not select them
    for (String name : sequence.fields()) {
      if (values.stream().noneMatch(v -> v.name().equals(name))) {
        values.add(table.schema().field(name));
      }
    }
    StructType kvType = layout.schemaWithValues(values);
    Map<String, DeletionFile> deletionFiles = new HashMap<>();
    for (int i = 0; i < split.files().size(); i++) {
      if (split.deletionFile(i) != null) {
        deletionFiles.put(split.files().get(i).fileName(), split.deletionFile(i));
      }
    }
    Map<String, DataFileMeta> byName = new HashMap<>();
    for (DataFileMeta file : split.files()) {
      byName.put(file.fileName(), file);
    }
    Function<String, DeletionVector> deletionVectors =
        name -> read.loadDeletionVector(byName.get(name), deletionFiles);
    Comparator<InternalRow> versionOrder = sequence.comparator(layout, values);
    // sections merge one after another, so they share one merge function
    MergeFunction mergeFunction = mergeEngine.newMergeFunction(layout, values);
    List<Section> sections = new ArrayList<>();
    for (List<LevelSortedRun> section :
        IntervalPartition.sections(SplitRead.sortedRuns(split, layout), layout.keyType())) {
      // each section's merge opens its runs and closes them all if one fails to open
      sections.add(
          new Section(
              section,
              () ->
                  new MergeIterator(
                      read.openRuns(split, section, kvType, deletionVectors),
                      layout,
                      versionOrder,
                      mergeFunction,
                      emitRetractions,
                      read.mergedRuns(section))));
    }
    return sections;
  }
}
