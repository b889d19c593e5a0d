package io.basalt.operation.write;

import io.basalt.BasaltException;
import io.basalt.data.RowKind;
import io.basalt.manifest.DataFileMeta;
import io.basalt.options.CompactionSettings;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The writer of one bucket of an append table: rows go straight to rolling files; at the end of the
 * write, small files of the bucket are merged when enough have piled up.
 */
final class AppendBucketWriter implements BucketWriter {
  @Nullable private final RollingDataFileWriter files;
  @Nullable private final BlobAppendFiles blobFiles;
  private final KeyValueBucketWriter.Target target;
  private final List<DataFileMeta> existingFiles;
  @Nullable private final AppendCompactRewriter rewriter;
  private final CompactionSettings settings;
  private final long targetFileSize;
  private final org.apache.hadoop.conf.Configuration conf;
  private final boolean rowTracking;
  private List<DataFileMeta> compactAfter = List.of();

  AppendBucketWriter(
      WriteContext context,
      KeyValueBucketWriter.Target target,
      List<DataFileMeta> existingFiles,
      long firstSequence,
      @Nullable AppendCompactRewriter rewriter,
      CompactionSettings settings,
      boolean rowTracking,
      List<String> blobColumns,
      long blobTargetFileSize) {
    if (blobColumns.isEmpty()) {
      this.files = new RollingDataFileWriter(context, target.bucketDir(), 0, null, firstSequence);
      this.blobFiles = null;
    } else {
      this.files = null;
      this.blobFiles =
          new BlobAppendFiles(
              context, target.bucketDir(), firstSequence, blobColumns, blobTargetFileSize);
    }
    this.rowTracking = rowTracking;
    this.target = target;
    this.existingFiles = existingFiles;
    this.rewriter = rewriter;
    this.settings = settings;
    this.targetFileSize = context.targetFileSize();
    this.conf = context.conf();
  }

  @Override
  public void write(InternalRow row) {
    if (files != null) {
      files.write(row);
    } else {
      blobFiles.write(row);
    }
  }

  @Override
  public void write(InternalRow row, RowKind kind) {
    if (kind != RowKind.INSERT) {
      throw new BasaltException(
          "Append tables take only inserted rows, got a "
              + kind.shortString()
              + " row. Fix: define a primary key to update or delete rows.");
    }
    write(row);
  }

  @Override
  public long memoryUsed() {
    return 0; // Parquet's own page buffers, bounded by the row-group size
  }

  @Override
  public void flush() {}

  @Override
  public Result finish(boolean fullCompaction) {
    List<DataFileMeta> newFiles = files != null ? files.finish() : blobFiles.finish();
    // compaction would separate a data file from its blob files; blob tables are not compacted
    if (rewriter == null || blobFiles != null) {
      return new Result(newFiles, List.of(), List.of());
    }
    List<DataFileMeta> all = new ArrayList<>(existingFiles);
    if (!rowTracking) {
      // new files get their row ids at commit: a row-tracking table compacts committed files only
      all.addAll(newFiles);
    }
    List<DataFileMeta> picked =
        AppendCompaction.pick(
            all, fullCompaction, targetFileSize, settings.minFileNum(), settings.maxFileNum());
    if (picked.isEmpty()) {
      return new Result(newFiles, List.of(), List.of());
    }
    compactAfter =
        rewriter.rewrite(target.partition(), target.bucket(), target.totalBuckets(), picked);
    return new Result(newFiles, picked, compactAfter);
  }

  @Override
  public void abort() {
    if (files != null) {
      files.abort();
    } else {
      blobFiles.abort();
    }
    for (DataFileMeta file : compactAfter) {
      org.apache.hadoop.fs.Path path =
          new org.apache.hadoop.fs.Path(target.bucketDir(), file.fileName());
      try {
        path.getFileSystem(conf).delete(path, false);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException("Failed to delete compaction output " + path, e);
      }
    }
  }
}
