package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.deletionvectors.BucketDeletionVectors;
import io.basalt.manifest.DataFileMeta;
import io.basalt.mergetree.compact.CompactUnit;
import io.basalt.mergetree.compact.Levels;
import io.basalt.mergetree.compact.UniversalCompaction;
import io.basalt.table.DataSplit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The compactions of one primary-key bucket within one write or compaction job: applies units to
 * the bucket's {@link Levels} and keeps the net result, the committed files replaced ({@link
 * #before()}) and the files written ({@link #after()}). A file written and rewritten again within
 * the same job is deleted at once, since no snapshot will ever reference it.
 */
public final class BucketCompaction {
  private final CompactRewriter rewriter;
  private final Levels levels;
  private final BinaryRow partition;
  private final int bucket;
  private final int totalBuckets;
  private final Path bucketDir;
  private final Configuration conf;
  private final List<DataFileMeta> before = new ArrayList<>();
  private final List<DataFileMeta> after = new ArrayList<>();
  // changelog files the compactions wrote: the lookup promotion's or the full compactions'
  private final List<DataFileMeta> changelog = new ArrayList<>();
  @Nullable private BucketDeletionVectors deletionVectors;
  @Nullable private LookupPromotion promotion;

  public BucketCompaction(
      CompactRewriter rewriter,
      Levels levels,
      BinaryRow partition,
      int bucket,
      int totalBuckets,
      Path bucketDir,
      Configuration conf) {
    this.rewriter = rewriter;
    this.levels = levels;
    this.partition = partition;
    this.bucket = bucket;
    this.totalBuckets = totalBuckets;
    this.bucketDir = bucketDir;
    this.conf = conf;
  }

  /**
   * Switches to lookup mode: level-0 files move up by {@link #promoteLevel0()} instead of plain
   * merges; with deletion vectors ({@code vectors} not null) rewrites also skip deleted rows.
   */
  public BucketCompaction withLookup(
      @Nullable BucketDeletionVectors vectors, LookupPromotion lookup) {
    this.deletionVectors = vectors;
    this.promotion = lookup;
    return this;
  }

  /**
   * Lookup mode: moves every level-0 file into the lowest free level above 0, marking older
   * versions deleted when there are deletion vectors (a full compaction when no level is free).
   */
  public void promoteLevel0() {
    List<DataFileMeta> level0 = levels.level0Files();
    if (level0.isEmpty()) {
      return;
    }
    // without deletion vectors a lookup table keeps older versions: the new run goes above them
    int outputLevel =
        deletionVectors == null && promotion.producesChangelog()
            ? levels.levelAboveUpperRuns()
            : lowestEmptyLevel();
    DataSplit bucketFiles = new DataSplit(0, partition, bucket, totalBuckets, level0, false);
    if (outputLevel < 0) {
      // no level to move into: the lookup only writes the changelog, the full compaction the data
      if (promotion.producesChangelog()) {
        changelog.addAll(
            promotion
                .promote(bucketFiles, level0, levels.upperRuns(), -1, deletionVectors)
                .changelog());
      }
      full();
      return;
    }
    LookupPromotion.Output written =
        promotion.promote(bucketFiles, level0, levels.upperRuns(), outputLevel, deletionVectors);
    changelog.addAll(written.changelog());
    record(level0, written.files());
  }

  /**
   * The lowest free level above 0. When none is free, first merges the runs below the top level
   * into one (with deletion vectors each key has one live row, so they merge without looking
   * anything up), rather than rewriting the whole bucket; -1 when that cannot free a level.
   */
  private int lowestEmptyLevel() {
    int level = levels.lowestEmptyLevel();
    if (level < 0 && deletionVectors != null) {
      Optional<CompactUnit> unit = UniversalCompaction.belowTop(levels);
      if (unit.isPresent()) {
        apply(unit.get());
        level = levels.lowestEmptyLevel();
      }
    }
    return level;
  }

  /** Whether level 0 must move up by the lookup before a full compaction, for its changelog. */
  public boolean lookupChangelog() {
    return promotion != null && promotion.producesChangelog();
  }

  /**
   * Whether a write's only run into an empty bucket may skip level 0 and go to the top level: only
   * where reads skip level 0 (deletion vectors), which would otherwise rewrite the run at once; not
   * when compactions or promotions produce a changelog, since theirs would then miss its rows. A
   * merge-on-read table keeps Paimon's level 0: the later full compaction that moves the first run
   * up also merges the upserts that came since, which its reads gain from (measured in the peer
   * suite: 0.9x against 1.9x of Parquet for the scan after 5 upserts).
   */
  public boolean newRunMayGoToTop() {
    return promotion != null
        && !promotion.producesChangelog()
        && !rewriter.producesChangelogAtTopLevel();
  }

  /** The changelog files written: by the lookup promotions or the full compactions. */
  public List<DataFileMeta> changelog() {
    return List.copyOf(changelog);
  }

  /** Runs minor compactions until the picker has nothing left to do. */
  public void compactWhileDue(UniversalCompaction picker) {
    for (Optional<CompactUnit> unit = picker.pick(levels);
        unit.isPresent();
        unit = picker.pick(levels)) {
      apply(unit.get());
    }
  }

  /** Compacts everything into one run at the top level, if that changes anything. */
  public void full() {
    UniversalCompaction.full(levels).ifPresent(this::apply);
  }

  /** Rewrites the files of {@code unit} and records the change. */
  public void apply(CompactUnit unit) {
    record(unit, rewrite(unit));
  }

  /**
   * Rewrites the files of {@code unit} without recording anything: safe on another thread while the
   * owner goes on writing, as the levels are not touched. One rewrite at a time per rewriter, since
   * the write's buckets share it.
   */
  CompactRewriter.Rewritten rewrite(CompactUnit unit) {
    boolean produceChangelog =
        rewriter.producesChangelogAtTopLevel() && unit.outputLevel() == levels.maxLevel();
    synchronized (rewriter) {
      return rewriter.rewrite(
          partition,
          bucket,
          totalBuckets,
          unit,
          deletionVectors == null ? file -> null : deletionVectors::get,
          produceChangelog);
    }
  }

  /** Records the result of {@link #rewrite}: the levels, the replaced and written files. */
  void record(CompactUnit unit, CompactRewriter.Rewritten rewritten) {
    List<DataFileMeta> written = rewritten.files();
    changelog.addAll(rewritten.changelog());
    if (deletionVectors != null) {
      // the rewritten files are gone, and their deleted rows with them
      List<String> replaced = new ArrayList<>();
      for (DataFileMeta file : unit.files()) {
        if (written.stream().noneMatch(w -> w.fileName().equals(file.fileName()))) {
          replaced.add(file.fileName());
        }
      }
      deletionVectors.removeFiles(replaced);
    }
    record(unit.files(), written);
  }

  private void record(List<DataFileMeta> replaced, List<DataFileMeta> written) {
    levels.update(replaced, written);
    List<String> writtenNames = written.stream().map(DataFileMeta::fileName).toList();
    for (DataFileMeta file : replaced) {
      boolean intermediate = after.removeIf(f -> f.fileName().equals(file.fileName()));
      if (!intermediate) {
        before.add(file);
      } else if (!writtenNames.contains(file.fileName())) {
        delete(file);
      }
    }
    after.addAll(written);
  }

  /** Committed files the compactions replaced. */
  public List<DataFileMeta> before() {
    return List.copyOf(before);
  }

  /** Files the compactions wrote (or moved to another level). */
  public List<DataFileMeta> after() {
    return List.copyOf(after);
  }

  /**
   * Deletes the files of a rewrite that is never recorded (the write aborted meanwhile), keeping
   * files the unit only moved to another level.
   */
  void discard(CompactUnit unit, CompactRewriter.Rewritten rewritten) {
    List<String> moved = unit.files().stream().map(DataFileMeta::fileName).toList();
    for (DataFileMeta file : rewritten.files()) {
      if (!moved.contains(file.fileName())) {
        delete(file);
      }
    }
    rewritten.changelog().forEach(this::delete);
  }

  /** Deletes the files written, keeping files that were only moved to another level. */
  public void abort() {
    for (DataFileMeta file : changelog) {
      delete(file);
    }
    changelog.clear();
    List<String> moved = before.stream().map(DataFileMeta::fileName).toList();
    for (DataFileMeta file : after) {
      if (!moved.contains(file.fileName())) {
        delete(file);
      }
    }
    after.clear();
  }

  private void delete(DataFileMeta file) {
    Path path = new Path(bucketDir, file.fileName());
    try {
      path.getFileSystem(conf).delete(path, false);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to delete compaction output " + path, e);
    }
  }
}
