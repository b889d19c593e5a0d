package io.basalt.operation.write;

import io.basalt.data.RowKind;
import io.basalt.manifest.DataFileMeta;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.KeyValues;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The writer of one primary-key bucket: stamps each row with the bucket's next sequence number,
 * buffers it, and flushes the buffer, sorted and deduplicated, as level-0 files.
 */
final class KeyValueBucketWriter implements BucketWriter {
  private final KeyValues keyValues;
  private final RollingDataFileWriter files;
  private long nextSequence;
  private int flushes;

  KeyValueBucketWriter(
      WriteContext context,
      KeyValueLayout layout,
      Path bucketDir,
      long firstSequence,
      String tableName) {
    this.keyValues = new KeyValues(layout, tableName);
    this.files = new RollingDataFileWriter(context, bucketDir, 0, layout, firstSequence);
    this.nextSequence = firstSequence;
  }

  @Override
  public void write(InternalRow row) {
    keyValues.add(row, nextSequence++, RowKind.INSERT.value());
  }

  @Override
  public void write(InternalRow row, RowKind kind) {
    keyValues.add(row, nextSequence++, kind.value());
  }

  @Override
  public long memoryUsed() {
    return keyValues.memoryUsed();
  }

  @Override
  public void flush() {
    if (keyValues.isEmpty()) {
      return;
    }
    Iterator<InternalRow> sorted = keyValues.sortedNewestPerKey();
    while (sorted.hasNext()) {
      files.write(sorted.next());
    }
    // each flush is its own sorted run: close the file so runs never share one
    files.finish();
    keyValues.clear();
    flushes++;
  }

  /** How many times the buffer was flushed. */
  int flushes() {
    return flushes;
  }

  @Override
  public List<DataFileMeta> finish() {
    flush();
    return files.finish();
  }

  @Override
  public void abort() {
    keyValues.clear();
    files.abort();
  }
}
