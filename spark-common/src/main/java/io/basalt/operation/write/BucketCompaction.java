package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.mergetree.compact.CompactUnit;
import io.basalt.mergetree.compact.Levels;
import io.basalt.mergetree.compact.UniversalCompaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
    List<DataFileMeta> written = rewriter.rewrite(partition, bucket, totalBuckets, unit);
    levels.update(unit.files(), written);
    List<String> writtenNames = written.stream().map(DataFileMeta::fileName).toList();
    for (DataFileMeta file : unit.files()) {
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

  /** Deletes the files written, keeping files that were only moved to another level. */
  public void abort() {
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
