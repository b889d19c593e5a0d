package io.basalt.operation.write;

import io.basalt.blob.BlobValueCodec;
import io.basalt.blob.RollingBlobFileWriter;
import io.basalt.data.ProjectedRow;
import io.basalt.fs.TablePaths;
import io.basalt.manifest.DataFileMeta;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The files of an append write to a table with BLOB columns, laid out as Paimon does: the other
 * columns go to data files ({@code writeCols} = those columns), each BLOB column's values to {@code
 * .blob} files ({@code writeCols} = [column]) that roll at {@code blob.target-file-size} and end
 * with their data file. Each data file is listed before its blob files, which the commit needs to
 * give them the data file's row ids.
 */
final class BlobAppendFiles {
  private final RollingDataFileWriter dataFiles;
  private final ProjectedRow dataView;
  private final List<String> dataColumns;
  private final int[] blobIndices;
  private final List<RollingBlobFileWriter> blobFiles = new ArrayList<>();
  private final List<DataFileMeta> written = new ArrayList<>();
  private int dataFilesSeen;

  BlobAppendFiles(
      WriteContext context,
      Path bucketDir,
      long firstSequence,
      List<String> blobColumns,
      long blobTargetFileSize) {
    StructType rowType = context.rowType();
    List<StructField> dataFields = new ArrayList<>();
    List<Integer> dataIndices = new ArrayList<>();
    this.blobIndices = new int[blobColumns.size()];
    for (int i = 0; i < rowType.size(); i++) {
      StructField field = rowType.fields()[i];
      int blob = blobColumns.indexOf(field.name());
      if (blob >= 0) {
        blobIndices[blob] = i;
      } else {
        dataFields.add(field);
        dataIndices.add(i);
      }
    }
    StructType dataType = new StructType(dataFields.toArray(new StructField[0]));
    this.dataColumns = List.of(dataType.fieldNames());
    this.dataFiles =
        new RollingDataFileWriter(context.withRowType(dataType), bucketDir, 0, null, firstSequence);
    this.dataView =
        new ProjectedRow(
            dataFields.stream().map(StructField::dataType).toArray(DataType[]::new),
            dataIndices.stream().mapToInt(Integer::intValue).toArray());
    for (String column : blobColumns) {
      // data-<uuid>-<n>.blob, Paimon's name; a uuid per column keeps the names apart
      blobFiles.add(
          new RollingBlobFileWriter(
              context.conf(),
              bucketDir,
              column,
              BlobValueCodec.of(rowType.apply(column).dataType()).orElseThrow(),
              TablePaths.newFilePrefix(context.dataFilePrefix()),
              blobTargetFileSize,
              context.schemaId()));
    }
  }

  void write(InternalRow row) {
    for (int i = 0; i < blobIndices.length; i++) {
      blobFiles.get(i).write(row, blobIndices[i]);
    }
    dataFiles.write(dataView.replace(row));
    if (dataFiles.finishedFiles().size() > dataFilesSeen) {
      closeRun();
    }
  }

  /** Closes the open files and returns every file written, each data file before its blobs. */
  List<DataFileMeta> finish() {
    dataFiles.finish();
    if (dataFiles.finishedFiles().size() > dataFilesSeen) {
      closeRun();
    }
    return List.copyOf(written);
  }

  void abort() {
    RuntimeException failure = null;
    for (RollingBlobFileWriter blob : blobFiles) {
      try {
        blob.abort();
      } catch (RuntimeException e) {
        failure = e; // the data files are still deleted below
      }
    }
    dataFiles.abort();
    if (failure != null) {
      throw failure;
    }
  }

  private void closeRun() {
    DataFileMeta data = dataFiles.finishedFiles().get(dataFilesSeen++);
    // stats "of all columns" would mean the table's; name the data file's columns instead
    written.add(
        data.withWriteCols(dataColumns)
            .withValueStatsCols(
                data.valueStatsCols() == null ? dataColumns : data.valueStatsCols()));
    for (RollingBlobFileWriter blob : blobFiles) {
      written.addAll(blob.closeRun(data.minSequenceNumber(), data.maxSequenceNumber()));
    }
  }
}
