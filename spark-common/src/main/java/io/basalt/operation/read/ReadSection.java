package io.basalt.operation.read;

import io.basalt.deletionvectors.DeletionFile;
import io.basalt.manifest.DataFileMeta;
import io.basalt.mergetree.SectionedMerge;
import io.basalt.mergetree.compact.LevelSortedRun;
import io.basalt.table.DataSplit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One key-range section of a split that needs merging ({@link SplitRead#readSections}): either a
 * section whose rows the merge would keep as they are, readable file by file ({@link #unmerged()}),
 * or a section whose runs must be merged ({@link #merge()}).
 */
public final class ReadSection {
  private final DataSplit split;
  private final List<LevelSortedRun> runs;
  private final boolean unmerged;
  private final Supplier<SplitRead.MergedRows> merge;

  ReadSection(
      DataSplit split,
      List<LevelSortedRun> runs,
      boolean unmerged,
      Supplier<SplitRead.MergedRows> merge) {
    this.split = split;
    this.runs = runs;
    this.unmerged = unmerged;
    this.merge = merge;
  }

  /**
   * Whether the section is one sorted run whose every row is its key's only version, under a merge
   * engine that keeps a lone added version as it is: its files may be read as they are, dropping
   * the retraction rows (-U/-D), which the merge would drop.
   */
  public boolean unmerged() {
    return unmerged;
  }

  /**
   * The section's files as a split of the same bucket, in key order, with their deletion vectors;
   * marked raw convertible only when {@link #unmerged()}, and then still holding the retraction
   * rows the reader must drop.
   */
  public DataSplit asSplit() {
    List<DataFileMeta> files = new ArrayList<>();
    for (LevelSortedRun run : runs) {
      files.addAll(run.run().files());
    }
    List<DeletionFile> deletions = new ArrayList<>();
    if (split.hasDeletionVectors()) {
      for (DataFileMeta file : files) {
        deletions.add(split.deletionFile(split.files().indexOf(file)));
      }
    }
    return new DataSplit(
        split.snapshotId(),
        split.partition(),
        split.bucket(),
        split.totalBuckets(),
        files,
        unmerged,
        deletions);
  }

  /** Opens the merge of the section's runs, rows as {@link SplitRead#read} returns them. */
  public SplitRead.MergedRows merge() {
    return merge.get();
  }

  /** Whether any file of {@code runs} may hold a retraction row (its count is not known 0). */
  static boolean mayHoldRetractions(List<LevelSortedRun> runs) {
    for (LevelSortedRun run : runs) {
      for (DataFileMeta file : run.run().files()) {
        if (file.deleteRowCount() == null || file.deleteRowCount() > 0) {
          return true;
        }
      }
    }
    return false;
  }

  /** A merge of one section, for {@link SplitRead.MergedRows}. */
  static SectionedMerge single(Supplier<io.basalt.mergetree.MergeIterator> merge) {
    return new SectionedMerge(List.of(merge));
  }
}
