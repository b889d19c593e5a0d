package io.basalt.bucket;

import io.basalt.BasaltException;
import io.basalt.options.TableOptions;
import io.basalt.table.FileStoreTable;

/**
 * Refuses writes to tables in a bucket mode Paimon has and Basalt cannot write: dynamic buckets (-1
 * on a primary-key table), which Paimon creates. Basalt reads them, but a write would put rows in a
 * bucket Paimon does not expect them in. (Postponed buckets, -2, are written: see {@link
 * PostponedBucket}.)
 */
public final class WritableBucketMode {
  private WritableBucketMode() {}

  /**
   * @throws BasaltException naming the table, the option and its value when Basalt cannot write it
   */
  public static void check(FileStoreTable table) {
    int buckets = table.bucketCount();
    String mode;
    if (buckets == -1 && table.hasPrimaryKey()) {
      mode = "dynamic-bucket";
    } else {
      return;
    }
    throw new BasaltException(
        String.format(
            "Table %s has '%s' = '%s' (Paimon's %s mode), which Basalt reads but cannot write."
                + " Fix: write it with Paimon, or copy it into a table with '%s' = N (N >= 1).",
            table.name(), TableOptions.BUCKET.key(), buckets, mode, TableOptions.BUCKET.key()));
  }
}
