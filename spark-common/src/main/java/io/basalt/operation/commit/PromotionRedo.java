package io.basalt.operation.commit;

import io.basalt.data.BinaryRow;
import io.basalt.operation.compact.BucketCompactor;
import io.basalt.options.CommitOptions;
import io.basalt.options.TableOptions;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.CommitMessage;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Redoes, on the driver, the level-0 promotion of a write whose compaction commit lost a race after
 * its APPEND landed. Reads of a primary-key table with deletion vectors skip level 0, so without
 * this the write's committed rows would stay hidden until some later compaction.
 *
 * <p>Each attempt plans the write's buckets afresh on the latest snapshot, so the promotion looks
 * its keys up in (and updates) the deletion vectors the winning writer committed; promoting one
 * bucket streams its level-0 files against the upper runs key by key. A bucket whose level 0 is
 * already empty (another compaction promoted it) needs nothing. The APPEND is committed, so this
 * never throws: when it finally fails it says so in a warning.
 */
final class PromotionRedo {
  private static final Logger LOG = LoggerFactory.getLogger(PromotionRedo.class);

  /** The buckets whose rows to make visible. */
  private record Bucket(BinaryRow partition, int bucket) {}

  private final FileStoreTable table;
  private final CommitCleanup cleanup;
  private final Function<List<CommitMessage>, OptionalLong> commit;

  /**
   * @param commit commits compaction messages as a COMPACT snapshot; on failure it deletes their
   *     output (except in an unknown state) and throws
   */
  PromotionRedo(
      FileStoreTable table,
      CommitCleanup cleanup,
      Function<List<CommitMessage>, OptionalLong> commit) {
    this.table = table;
    this.cleanup = cleanup;
    this.commit = commit;
  }

  /** Whether reads of {@code table} skip level 0, so a dropped promotion hides committed rows. */
  static boolean needed(FileStoreTable table) {
    return table.hasPrimaryKey() && table.options().get(TableOptions.DELETION_VECTORS_ENABLED);
  }

  /**
   * Promotes the level-0 files of the buckets {@code messages} wrote new files to.
   *
   * @return the id of the COMPACT snapshot committed, or empty when none was needed or it failed
   */
  OptionalLong run(List<CommitMessage> messages) {
    Set<Bucket> buckets = new LinkedHashSet<>();
    for (CommitMessage message : messages) {
      if (!message.newFiles().isEmpty()) {
        buckets.add(new Bucket(message.partition(), message.bucket()));
      }
    }
    if (buckets.isEmpty()) {
      return OptionalLong.empty();
    }
    int maxRetries = table.options().get(CommitOptions.COMMIT_MAX_RETRIES);
    RuntimeException last = null;
    for (int attempt = 0; attempt <= maxRetries; attempt++) {
      if (attempt > 0 && !backoff(attempt - 1)) {
        break;
      }
      try {
        return attemptOnce(buckets);
      } catch (CommitConflictException e) {
        last = e; // another commit changed these buckets meanwhile: plan again on the new latest
        LOG.info(
            "Redoing the level-0 promotion of table {} conflicted (attempt {}); retrying",
            table.name(),
            attempt + 1,
            e);
      } catch (RuntimeException e) {
        last = e; // an I/O failure or an unknown commit state: retrying cannot be trusted
        break;
      }
    }
    LOG.warn(
        "The new rows of table {} in {} stay invisible to reads (they sit on level 0) until the"
            + " next compaction: redoing their level-0 promotion failed. They are committed. Fix:"
            + " run CALL sys.compact(table => '{}').",
        table.name(),
        describe(buckets),
        table.name(),
        last);
    return OptionalLong.empty();
  }

  /** Promotes the buckets on the latest snapshot and commits the result, if there is any. */
  private OptionalLong attemptOnce(Set<Bucket> buckets) {
    Optional<Snapshot> latest = table.latestSnapshot();
    if (latest.isEmpty()) {
      return OptionalLong.empty();
    }
    BucketCompactor compactor = new BucketCompactor(table);
    List<CommitMessage> promotions = new ArrayList<>();
    try {
      for (Bucket bucket : buckets) {
        List<DataSplit> splits =
            table
                .newScan()
                .forCompaction()
                .withSnapshot(latest.get())
                .withPartition(bucket.partition())
                .withBucket(bucket.bucket())
                .plan()
                .splits();
        for (DataSplit split : splits) {
          CommitMessage promotion = compactor.promoteLevel0(split);
          if (promotion.hasCompaction()) {
            promotions.add(promotion);
          }
        }
      }
    } catch (RuntimeException e) {
      cleanup.deleteCompactionOutput(promotions);
      throw e;
    }
    return promotions.isEmpty() ? OptionalLong.empty() : commit.apply(promotions);
  }

  private String describe(Set<Bucket> buckets) {
    List<String> names = new ArrayList<>();
    for (Bucket bucket : buckets) {
      String path = table.dataFilePaths().partitionPath(bucket.partition());
      names.add((path.isEmpty() ? "" : path + "/") + "bucket-" + bucket.bucket());
    }
    return String.join(", ", names);
  }

  /** Waits before retry {@code attempt}; false when interrupted. */
  private boolean backoff(int attempt) {
    long min = table.options().get(CommitOptions.COMMIT_MIN_RETRY_WAIT);
    long max = table.options().get(CommitOptions.COMMIT_MAX_RETRY_WAIT);
    long wait = Math.min(max, min << Math.min(attempt, 20));
    try {
      Thread.sleep(wait / 2 + ThreadLocalRandom.current().nextLong(Math.max(1, wait / 2) + 1));
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
