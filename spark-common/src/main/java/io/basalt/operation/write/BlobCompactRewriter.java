package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.read.SplitRead;
import io.basalt.rowtracking.RowTracking;
import io.basalt.rowtracking.TrackedRows;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.Check;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Merges a run of adjacent data files of a blob table (see {@code BlobCompaction}) into one data
 * file: the columns that are not BLOB columns, plus the stored row ids and sequence numbers, read
 * without opening a blob file. The new file keeps the run's first row id, so its rows keep their
 * ids and the run's blob files, which are not rewritten, still line up with them.
 */
public final class BlobCompactRewriter {
  private final FileStoreTable table;
  private final WriteContext context;
  private final SplitRead read;
  private final List<String> dataColumns;
  private final List<String> statsColumns;

  public BlobCompactRewriter(FileStoreTable table, List<String> blobColumns) {
    this.table = table;
    List<StructField> dataFields = new ArrayList<>();
    for (StructField field : table.rowType().fields()) {
      if (!blobColumns.contains(field.name())) {
        dataFields.add(field);
      }
    }
    StructType dataType = new StructType(dataFields.toArray(new StructField[0]));
    this.dataColumns = List.of(dataType.fieldNames());
    StructType fileType = RowTracking.withTrackingColumns(dataType);
    this.statsColumns = List.of(fileType.fieldNames());
    this.context = oneFilePerWrite(WriteContext.of(table).withRowType(fileType));
    this.read = table.newRead(dataType);
  }

  // a run must become exactly one file: a cut inside it could fall inside a blob file's ids
  private static WriteContext oneFilePerWrite(WriteContext c) {
    return new WriteContext(
        c.conf(),
        c.rowType(),
        c.schemaId(),
        c.parquetOptions(),
        c.fileFormat(),
        Long.MAX_VALUE,
        c.writeBufferSize(),
        c.spillable(),
        c.maxSpillFiles(),
        c.spillDir(),
        c.dataFilePrefix());
  }

  /** The data file that replaces {@code run} (adjacent data files in row id order). */
  public DataFileMeta rewrite(
      BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> run) {
    List<DataFileMeta> written =
        CompactedFiles.write(
            table,
            context,
            partition,
            bucket,
            totalBuckets,
            run,
            split -> new TrackedRows(read, split));
    Check.state(written.size() == 1, "Compacting %s wrote %s files, not one", run, written.size());
    DataFileMeta file = written.get(0);
    return file.withWriteCols(dataColumns)
        .withValueStatsCols(file.valueStatsCols() == null ? statsColumns : file.valueStatsCols())
        .withRowTracking(
            run.get(0).firstRowId(), file.minSequenceNumber(), file.maxSequenceNumber());
  }
}
