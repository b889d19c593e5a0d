package io.basalt.operation.commit;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.fs.FileIO;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.SimpleStats;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Tables whose commits carry synthetic file metadata: the commit path never opens a data file, so
 * these tests run on {@link io.basalt.fs.InMemoryFileIO} without writing Parquet.
 */
final class SyntheticFiles {
  private final FileStoreTable table;
  private final BinaryRowCodec keyCodec;
  private final BinaryRowCodec partitionCodec;

  SyntheticFiles(FileStoreTable table) {
    this.table = table;
    this.keyCodec =
        new BinaryRowCodec(new KeyValueLayout(table.schema()).keyTypes().toArray(new DataType[0]));
    this.partitionCodec = new BinaryRowCodec(table.partitionType());
  }

  /** A primary-key table (id BIGINT, v STRING, p STRING) partitioned by p at {@code root}. */
  static FileStoreTable pkTable(FileIO io, String root, Map<String, String> options) {
    return FileStoreTable.create(
        io,
        new Path(root),
        "db.t",
        SchemaFactory.create(
            0, TestTables.ID_V_P, List.of("p"), List.of("id", "p"), options, null));
  }

  FileStoreTable table() {
    return table;
  }

  BinaryRow partition(String value) {
    return partitionCodec.toBinary(
        new GenericInternalRow(new Object[] {UTF8String.fromString(value)}));
  }

  DataFileMeta file(String name, int level, long minKey, long maxKey) {
    BinaryRow min = keyCodec.toBinary(new GenericInternalRow(new Object[] {minKey}));
    BinaryRow max = keyCodec.toBinary(new GenericInternalRow(new Object[] {maxKey}));
    return DataFileMeta.newFile(
        name,
        100,
        maxKey - minKey + 1,
        min,
        max,
        SimpleStats.EMPTY,
        SimpleStats.EMPTY,
        minKey,
        maxKey,
        table.schema().id(),
        level,
        0,
        level == 0 ? DataFileMeta.SOURCE_APPEND : DataFileMeta.SOURCE_COMPACT,
        null);
  }

  static CommitMessage append(BinaryRow partition, int bucket, int buckets, DataFileMeta... files) {
    return new CommitMessage(partition, bucket, buckets, List.of(files));
  }

  static CommitMessage compact(
      BinaryRow partition,
      int bucket,
      int buckets,
      List<DataFileMeta> before,
      List<DataFileMeta> after) {
    return new CommitMessage(partition, bucket, buckets, List.of(), before, after);
  }
}
