package io.basalt.bucket;

import io.basalt.BasaltException;
import io.basalt.data.BinaryRow;
import io.basalt.index.IndexFileMeta;
import io.basalt.options.DynamicBucketOptions;
import io.basalt.utils.Check;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntConsumer;

/**
 * Assigns keys of a dynamic-bucket table to buckets (format-notes.md section 7.2), for the
 * assigners of one task. A write routes each key to assigner {@code abs(hash % numAssigners)}; that
 * assigner owns the buckets {@code b} with {@code b % numAssigners == id}, as in Paimon. Per
 * (partition, assigner) it loads only the key hashes routed to it from the partition's HASH index
 * files, so a task holds a share of a partition's keys, never the table's.
 *
 * <p>A key goes to the bucket its hash is already in (which may belong to another assigner when the
 * table was written with another assigner count), else to the first owned bucket with fewer than
 * {@code target-row-num} keys, else to a new owned bucket below {@code max-buckets}, else to an
 * owned bucket picked by the hash. Not thread-safe.
 */
public final class DynamicBucketAssigner {
  // Paimon stores bucket ids of dynamic tables as shorts
  private static final int MAX_BUCKET_ID = Short.MAX_VALUE - 1;

  /** Where the assigner reads a partition's HASH index from (the write's base snapshot). */
  public interface IndexSource {
    /** The partition's HASH index file of each bucket. */
    Map<Integer, IndexFileMeta> hashFiles(BinaryRow partition);

    /** Streams every hash of {@code file}. */
    void forEachHash(IndexFileMeta file, IntConsumer consumer);
  }

  private final int numAssigners;
  private final long targetRowNum;
  private final int maxBuckets;
  private final IndexSource source;
  private final String table;
  private final Map<Key, PartitionIndex> indexes = new HashMap<>();

  public DynamicBucketAssigner(
      int numAssigners, long targetRowNum, int maxBuckets, IndexSource source, String table) {
    Check.argument(numAssigners > 0, "Invalid number of assigners %s", numAssigners);
    Check.argument(targetRowNum > 0, "Invalid target row number %s", targetRowNum);
    this.numAssigners = numAssigners;
    this.targetRowNum = targetRowNum;
    this.maxBuckets = maxBuckets;
    this.source = Check.notNull(source, "source");
    this.table = table;
  }

  /** The assigner a key hash is routed to: the {@code bucket(numAssigners, key)} of the write. */
  public static int assignerOf(int hash, int numAssigners) {
    return BucketFunction.bucketOfHash(hash, numAssigners);
  }

  /** Whether assigner {@code id} of {@code numAssigners} may put new keys into {@code bucket}. */
  public static boolean owns(int id, int numAssigners, int bucket) {
    return bucket % numAssigners == id;
  }

  /** The bucket of the key with {@code hash} in {@code partition}, recording a new key. */
  public int assign(BinaryRow partition, int hash) {
    int id = assignerOf(hash, numAssigners);
    PartitionIndex index = indexes.get(new Key(partition, id));
    if (index == null) {
      index = load(partition, id);
      indexes.put(new Key(partition, id), index);
    }
    return index.assign(hash);
  }

  /** Whether {@code bucket} of {@code partition} is owned by the assigner of {@code hash}. */
  public boolean ownsBucketOf(int hash, int bucket) {
    return owns(assignerOf(hash, numAssigners), numAssigners, bucket);
  }

  /**
   * The hashes this task added per (partition, bucket), with the bucket's index file in the base
   * snapshot (null for a new bucket); only owned buckets gain hashes.
   */
  public List<NewHashes> newHashes() {
    List<NewHashes> all = new ArrayList<>();
    for (Map.Entry<Key, PartitionIndex> e : indexes.entrySet()) {
      for (Map.Entry<Integer, IntList> bucket : e.getValue().added.entrySet()) {
        all.add(
            new NewHashes(
                e.getKey().partition(),
                e.getKey().id(),
                bucket.getKey(),
                e.getValue().files.get(bucket.getKey()),
                bucket.getValue()));
      }
    }
    return all;
  }

  /**
   * Records that {@code added}'s hashes now live in {@code file}: a later {@link #newHashes()}
   * extends that file with only the hashes added after this call.
   */
  public void written(NewHashes added, IndexFileMeta file) {
    PartitionIndex index = indexes.get(new Key(added.partition(), added.assigner()));
    index.files.put(added.bucket(), file);
    index.added.remove(added.bucket());
  }

  /** New hashes of one bucket, and the index file they extend (null when there was none). */
  public record NewHashes(
      BinaryRow partition, int assigner, int bucket, IndexFileMeta previous, IntList hashes) {}

  private PartitionIndex load(BinaryRow partition, int id) {
    Map<Integer, IndexFileMeta> files = source.hashFiles(partition);
    PartitionIndex index = new PartitionIndex(partition, id, files);
    for (Map.Entry<Integer, IndexFileMeta> file : files.entrySet()) {
      int bucket = file.getKey();
      source.forEachHash(
          file.getValue(),
          hash -> {
            if (assignerOf(hash, numAssigners) == id) {
              index.hashToBucket.put(hash, bucket);
            }
          });
      if (owns(id, numAssigners, bucket)) {
        index.sizes.put(bucket, file.getValue().rowCount());
      }
    }
    return index;
  }

  private record Key(BinaryRow partition, int id) {}

  /** One assigner's view of one partition. */
  private final class PartitionIndex {
    private final BinaryRow partition;
    private final int id;
    private final Map<Integer, IndexFileMeta> files;
    private final IntIntMap hashToBucket = new IntIntMap();
    // owned buckets in id order, with their key counts
    private final TreeMap<Integer, Long> sizes = new TreeMap<>();
    private final Map<Integer, IntList> added = new LinkedHashMap<>();

    PartitionIndex(BinaryRow partition, int id, Map<Integer, IndexFileMeta> files) {
      this.partition = partition;
      this.id = id;
      this.files = files;
    }

    int assign(int hash) {
      int known = hashToBucket.get(hash, -1);
      if (known >= 0) {
        return known;
      }
      int bucket = pick(hash);
      hashToBucket.put(hash, bucket);
      sizes.merge(bucket, 1L, Long::sum);
      added.computeIfAbsent(bucket, b -> new IntList()).add(hash);
      return bucket;
    }

    private int pick(int hash) {
      for (Map.Entry<Integer, Long> bucket : sizes.entrySet()) {
        if (bucket.getValue() < targetRowNum) {
          return bucket.getKey();
        }
      }
      int limit = maxBuckets > 0 ? maxBuckets - 1 : MAX_BUCKET_ID;
      for (int bucket = id; bucket <= limit; bucket += numAssigners) {
        if (!sizes.containsKey(bucket) && !files.containsKey(bucket)) {
          return bucket;
        }
      }
      if (maxBuckets <= 0) {
        throw new BasaltException(
            String.format(
                "Table %s needs more than %s dynamic buckets in a partition with '%s' = %s. Fix:"
                    + " raise '%s'.",
                table,
                MAX_BUCKET_ID + 1,
                DynamicBucketOptions.TARGET_ROW_NUM.key(),
                targetRowNum,
                DynamicBucketOptions.TARGET_ROW_NUM.key()));
      }
      // every owned bucket id is taken and full: spread the key over the owned buckets
      List<Integer> owned = new ArrayList<>(sizes.keySet());
      Check.state(
          !owned.isEmpty(),
          "Assigner %s of %s owns no bucket below '%s' = %s in table %s",
          id,
          numAssigners,
          DynamicBucketOptions.MAX_BUCKETS.key(),
          maxBuckets,
          table);
      return owned.get(Math.abs(hash % owned.size()));
    }
  }
}
