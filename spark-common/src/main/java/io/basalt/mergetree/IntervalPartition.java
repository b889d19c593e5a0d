package io.basalt.mergetree;

import io.basalt.data.BinaryRowCodec;
import io.basalt.data.RowComparator;
import io.basalt.manifest.DataFileMeta;
import io.basalt.mergetree.compact.LevelSortedRun;
import io.basalt.mergetree.compact.SortedRun;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Splits a bucket's sorted runs into sections by the key ranges of their files (Paimon's interval
 * partition): files are taken in min-key order and a file whose min key is above the max key of
 * every file before it starts a new section. Every version of a key therefore lies in one section,
 * so sections merge independently, one after another, and a section holding one run needs no merge
 * at all. Ranges that touch (a max key equal to the next min key) share a section.
 *
 * <p>Within a section, files keep the run they came from (a level-0 file, or a level), so each
 * run's level, which decides how its rows merge, is unchanged.
 */
public final class IntervalPartition {
  private IntervalPartition() {}

  /**
   * The sections of {@code runs}, in key order; each holds the part of every run whose files
   * overlap the section, in the order of {@code runs}.
   *
   * @param keyType the key columns, as {@code KeyValueLayout.keyType()} gives them
   */
  public static List<List<LevelSortedRun>> sections(List<LevelSortedRun> runs, StructType keyType) {
    BinaryRowCodec codec = new BinaryRowCodec(keyType);
    Comparator<InternalRow> order =
        new RowComparator(Arrays.stream(keyType.fields()).map(StructField::dataType).toList());
    List<Ranged> files = new ArrayList<>();
    for (int run = 0; run < runs.size(); run++) {
      for (DataFileMeta file : runs.get(run).run().files()) {
        files.add(new Ranged(run, file, codec.toRow(file.minKey()), codec.toRow(file.maxKey())));
      }
    }
    files.sort(
        (a, b) -> {
          int c = order.compare(a.min, b.min);
          return c != 0 ? c : order.compare(a.max, b.max);
        });
    List<List<LevelSortedRun>> sections = new ArrayList<>();
    List<Ranged> section = new ArrayList<>();
    InternalRow bound = null;
    for (Ranged file : files) {
      if (bound != null && order.compare(file.min, bound) > 0) {
        sections.add(byRun(section, runs));
        section = new ArrayList<>();
        bound = null;
      }
      section.add(file);
      if (bound == null || order.compare(file.max, bound) > 0) {
        bound = file.max;
      }
    }
    if (!section.isEmpty()) {
      sections.add(byRun(section, runs));
    }
    return sections;
  }

  /** The files of one section grouped back into their runs, in run order. */
  private static List<LevelSortedRun> byRun(List<Ranged> section, List<LevelSortedRun> runs) {
    Map<Integer, List<DataFileMeta>> byRun = new TreeMap<>();
    for (Ranged file : section) {
      byRun.computeIfAbsent(file.run, r -> new ArrayList<>()).add(file.file);
    }
    List<LevelSortedRun> result = new ArrayList<>(byRun.size());
    byRun.forEach(
        (run, files) ->
            result.add(new LevelSortedRun(runs.get(run).level(), new SortedRun(files))));
    return result;
  }

  /** A file with its decoded key range and the index of its run. */
  private record Ranged(int run, DataFileMeta file, InternalRow min, InternalRow max) {}
}
