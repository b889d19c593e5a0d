package io.basalt.bucket;

import io.basalt.options.PostponeOptions;
import io.basalt.options.TableOptions;
import io.basalt.table.FileStoreTable;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Paimon's postponed-bucket mode ({@code 'bucket' = '-2'}, primary-key tables): writes land in
 * {@code bucket-postpone/} with bucket and {@code _TOTAL_BUCKETS} -2, where no read sees them, and
 * {@code CALL sys.compact} later moves their rows into numbered buckets. Batch inserts may skip
 * that stage ({@code postpone.batch-write-fixed-bucket}).
 */
public final class PostponedBucket {
  /** The bucket id, and the {@code _TOTAL_BUCKETS}, of postponed files. */
  public static final int BUCKET = -2;

  /** The directory Paimon names the postponed bucket. */
  public static final String DIRECTORY = "bucket-postpone";

  private PostponedBucket() {}

  /** Whether {@code table} postpones its buckets. */
  public static boolean isPostponed(FileStoreTable table) {
    return table.bucketCount() == BUCKET;
  }

  /**
   * Whether a batch INSERT INTO ({@code overwrite} false) or INSERT OVERWRITE of a postponed-bucket
   * table writes straight into numbered buckets, as Paimon's {@code
   * postpone.batch-write-fixed-bucket} decides: always for an overwrite, for an insert only without
   * deletion vectors (whose level 0 a read would hide anyway).
   */
  public static boolean writesFixedBuckets(FileStoreTable table, boolean overwrite) {
    return isPostponed(table)
        && table.options().get(PostponeOptions.POSTPONE_BATCH_WRITE_FIXED_BUCKET)
        && (overwrite || !table.options().get(TableOptions.DELETION_VECTORS_ENABLED));
  }

  /**
   * A fresh file name prefix for one postponed writer, in Paimon's form {@code
   * data--u-<commitUser>-s-<writeId>-w-}: the file writer appends a uuid and a counter, so the
   * files of one writer share a prefix.
   */
  public static String newWriterPrefix() {
    return String.format(
        "data--u-%s-s-%d-w-",
        UUID.randomUUID(), ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE));
  }

  /**
   * The bucket count a partition gets: the one it has, else {@code postpone.default-bucket-num}.
   */
  public static int bucketCount(FileStoreTable table, int existing) {
    return existing > 0
        ? existing
        : table.options().get(PostponeOptions.POSTPONE_DEFAULT_BUCKET_NUM);
  }
}
