package io.basalt.spark.systables;

import io.basalt.table.FileStoreTable;

/** {@code t$buckets}: the live files of the latest snapshot summed per (partition, bucket). */
final class BucketsTable extends PartitionsTable {
  BucketsTable(FileStoreTable table) {
    super(table, true);
  }
}
