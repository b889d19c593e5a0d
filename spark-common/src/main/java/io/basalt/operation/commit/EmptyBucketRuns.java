package io.basalt.operation.commit;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.ManifestEntry;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import javax.annotation.Nullable;

/**
 * Keeps the LSM valid for writes that put their run straight on the top level because the bucket
 * was empty in the write's base snapshot ({@code NewRunPlacement}): when another commit has added
 * files to that bucket since, the run goes back to level 0 (only the manifest entry changes; a
 * sorted run is valid on level 0 whatever lies above it), so it never shares a level with, or sits
 * below, files it has not been merged with. An APPEND's new files above level 0 come only from such
 * writes. Each commit attempt resolves against its own latest snapshot; {@link #movedBuckets()}
 * tells the buckets the last attempt moved.
 */
final class EmptyBucketRuns {
  /** A bucket of a partition. */
  record Bucket(BinaryRow partition, int bucket) {}

  private final TouchedEntries touched;
  private final Set<Bucket> moved = new LinkedHashSet<>();

  /** Buckets that more than one message of this commit wrote a top-level run into. */
  private final Set<Bucket> shared = new HashSet<>();

  EmptyBucketRuns(TouchedEntries touched) {
    this.touched = touched;
  }

  /**
   * The new files of {@code messages} as ADD entries, remembering the buckets where two messages
   * (two writers that each found the bucket empty) put a run on the top level: two runs cannot
   * share a level, so {@link #resolve} moves those to level 0 whatever the latest snapshot holds.
   */
  List<ManifestEntry> adds(List<CommitMessage> messages) {
    shared.clear();
    Set<Bucket> seen = new HashSet<>();
    for (CommitMessage message : messages) {
      Bucket bucket = new Bucket(message.partition(), message.bucket());
      boolean topLevel = message.newFiles().stream().anyMatch(file -> file.level() > 0);
      if (topLevel && !seen.add(bucket)) {
        shared.add(bucket);
      }
    }
    return CommitChanges.adds(messages);
  }

  /**
   * {@code adds} (an APPEND's new files) with every file above level 0 moved to level 0 when its
   * bucket holds live files in {@code latest}. Reads the manifests of those files' partitions only,
   * and only when there is such a file.
   */
  List<ManifestEntry> resolve(@Nullable Snapshot latest, List<ManifestEntry> adds) {
    moved.clear();
    Set<BinaryRow> partitions = new HashSet<>();
    for (ManifestEntry add : adds) {
      if (add.file().level() > 0) {
        partitions.add(add.partition());
      }
    }
    if (partitions.isEmpty() || (latest == null && shared.isEmpty())) {
      return adds;
    }
    Set<Bucket> taken = new HashSet<>(shared);
    if (latest != null) {
      for (ManifestEntry entry : touched.live(latest, partitions)) {
        taken.add(new Bucket(entry.partition(), entry.bucket()));
      }
    }
    List<ManifestEntry> resolved = new ArrayList<>(adds.size());
    for (ManifestEntry add : adds) {
      Bucket bucket = new Bucket(add.partition(), add.bucket());
      if (add.file().level() > 0 && taken.contains(bucket)) {
        moved.add(bucket);
        resolved.add(
            new ManifestEntry(
                add.kind(),
                add.partition(),
                add.bucket(),
                add.totalBuckets(),
                add.file().withLevel(0)));
      } else {
        resolved.add(add);
      }
    }
    return resolved;
  }

  /** The buckets whose runs the last {@link #resolve} moved back to level 0. */
  Set<Bucket> movedBuckets() {
    return Set.copyOf(moved);
  }

  /**
   * After the APPEND landed: where reads skip level 0 (deletion vectors), promotes the runs the
   * last attempt moved back there, so their rows become visible; otherwise nothing to do. Never
   * throws (see {@link PromotionRedo}).
   *
   * @param commitCompaction commits promotions as a COMPACT snapshot
   * @return the promotion's snapshot when it committed one, else {@code appended}
   */
  OptionalLong promoteMoved(
      FileStoreTable table,
      CommitCleanup cleanup,
      List<CommitMessage> messages,
      OptionalLong appended,
      Function<List<CommitMessage>, OptionalLong> commitCompaction) {
    if (moved.isEmpty() || appended.isEmpty() || !PromotionRedo.needed(table)) {
      return appended;
    }
    OptionalLong promoted =
        new PromotionRedo(table, cleanup, commitCompaction).run(ofMovedBuckets(messages));
    return promoted.isPresent() ? promoted : appended;
  }

  /** The messages of {@code messages} that wrote into a moved bucket. */
  private List<CommitMessage> ofMovedBuckets(List<CommitMessage> messages) {
    List<CommitMessage> of = new ArrayList<>();
    for (CommitMessage message : messages) {
      if (moved.contains(new Bucket(message.partition(), message.bucket()))) {
        of.add(message);
      }
    }
    return of;
  }
}
