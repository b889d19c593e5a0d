package io.basalt.operation.write;

import io.basalt.BasaltException;
import io.basalt.data.RowKind;
import io.basalt.manifest.DataFileMeta;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/** The writer of one bucket of an append table: rows go straight to rolling files. */
final class AppendBucketWriter implements BucketWriter {
  private final RollingDataFileWriter files;

  AppendBucketWriter(WriteContext context, Path bucketDir, long firstSequence) {
    this.files = new RollingDataFileWriter(context, bucketDir, 0, null, firstSequence);
  }

  @Override
  public void write(InternalRow row) {
    files.write(row);
  }

  @Override
  public void write(InternalRow row, RowKind kind) {
    if (kind != RowKind.INSERT) {
      throw new BasaltException(
          "Append tables take only inserted rows, got a "
              + kind.shortString()
              + " row. Fix: define a primary key to update or delete rows.");
    }
    files.write(row);
  }

  @Override
  public long memoryUsed() {
    return 0; // Parquet's own page buffers, bounded by the row-group size
  }

  @Override
  public void flush() {}

  @Override
  public List<DataFileMeta> finish() {
    return files.finish();
  }

  @Override
  public void abort() {
    files.abort();
  }
}
