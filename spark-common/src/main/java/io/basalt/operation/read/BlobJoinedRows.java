package io.basalt.operation.read;

import io.basalt.BasaltException;
import io.basalt.blob.BlobColumns;
import io.basalt.blob.BlobFileReader;
import io.basalt.blob.BlobValueCodec;
import io.basalt.data.DelegatingRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The rows of one data file of a table with BLOB columns, each BLOB column read from the {@code
 * .blob} files that cover the data file's row ids (Paimon's data-evolution layout: same {@code
 * firstRowId} range, {@code writeCols} = [column]). Only the BLOB columns of the read schema open
 * blob files; values are read one at a time. The returned row is reused between calls.
 */
final class BlobJoinedRows implements CloseableIterator<InternalRow> {
  private final CloseableIterator<InternalRow> data;
  private final List<BlobColumnCursor> cursors;
  private final GenericInternalRow blobValues;
  private final JoinedView view;
  private final String dataFile;
  private long rows;

  private BlobJoinedRows(
      CloseableIterator<InternalRow> data,
      List<BlobColumnCursor> cursors,
      JoinedView view,
      String dataFile) {
    this.data = data;
    this.cursors = cursors;
    this.blobValues = new GenericInternalRow(cursors.size());
    this.view = view;
    this.dataFile = dataFile;
  }

  /**
   * Opens {@code file} of {@code splitFiles} in {@code schema}: its BLOB columns (those in {@code
   * blobColumns}) from the split's blob files, the rest with {@code openData}.
   */
  static CloseableIterator<InternalRow> open(
      StructType schema,
      List<String> blobColumns,
      DataFileMeta file,
      List<DataFileMeta> splitFiles,
      Function<DataFileMeta, Path> paths,
      Configuration conf,
      Function<StructType, CloseableIterator<InternalRow>> openData) {
    List<StructField> dataFields = new ArrayList<>();
    int[] dataIndex = new int[schema.size()];
    List<String> readBlobs = new ArrayList<>();
    for (int i = 0; i < schema.size(); i++) {
      StructField field = schema.fields()[i];
      // a data file that lists the column holds it itself (written before the column moved out)
      if (blobColumns.contains(field.name())
          && (file.writeCols() == null || !file.writeCols().contains(field.name()))) {
        dataIndex[i] = -1 - readBlobs.size();
        readBlobs.add(field.name());
      } else {
        dataIndex[i] = dataFields.size();
        dataFields.add(field);
      }
    }
    if (readBlobs.isEmpty()) {
      return openData.apply(schema); // the blob columns are pruned: no blob file is opened
    }
    if (file.firstRowId() == null) {
      throw new BasaltException(
          "Data file "
              + file.fileName()
              + " of a BLOB table has no first row id to find its"
              + " blob files by; the table's metadata is damaged");
    }
    List<BlobColumnCursor> cursors = new ArrayList<>();
    for (String column : readBlobs) {
      BlobValueCodec codec = BlobValueCodec.of(schema.apply(column).dataType()).orElseThrow();
      cursors.add(
          new BlobColumnCursor(column, codec, blobFiles(column, file, splitFiles), paths, conf));
    }
    DataType[] types = new DataType[schema.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = schema.fields()[i].dataType();
    }
    CloseableIterator<InternalRow> dataRows =
        openData.apply(new StructType(dataFields.toArray(new StructField[0])));
    return new BlobJoinedRows(dataRows, cursors, new JoinedView(types, dataIndex), file.fileName());
  }

  /** The blob files of {@code column} within the row ids of {@code file}, in row order. */
  private static List<DataFileMeta> blobFiles(
      String column, DataFileMeta file, List<DataFileMeta> splitFiles) {
    long first = file.firstRowId();
    long end = first + file.rowCount();
    List<DataFileMeta> files = new ArrayList<>();
    for (DataFileMeta candidate : splitFiles) {
      Long start = candidate.firstRowId();
      if (BlobColumns.isBlobFile(candidate.fileName())
          && candidate.writeCols() != null
          && candidate.writeCols().contains(column)
          && start != null
          && start >= first
          && start < end) {
        files.add(candidate);
      }
    }
    files.sort(Comparator.comparingLong(DataFileMeta::firstRowId));
    long covered = first;
    for (DataFileMeta blob : files) {
      if (blob.firstRowId() != covered) {
        break;
      }
      covered += blob.rowCount();
    }
    if (covered != end) {
      throw new BasaltException(
          String.format(
              "The blob files of column '%s' for data file %s cover row ids %s to %s, not the"
                  + " file's %s to %s; the table's metadata is damaged",
              column, file.fileName(), first, covered - 1, first, end - 1));
    }
    return files;
  }

  @Override
  public boolean hasNext() {
    return data.hasNext();
  }

  @Override
  public InternalRow next() {
    if (!data.hasNext()) {
      throw new NoSuchElementException();
    }
    InternalRow row = data.next();
    rows++;
    for (int i = 0; i < cursors.size(); i++) {
      blobValues.update(i, cursors.get(i).next(dataFile, rows));
    }
    return view.replace(row, blobValues);
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    for (BlobColumnCursor cursor : cursors) {
      try {
        cursor.close();
      } catch (RuntimeException e) {
        failure = e;
      }
    }
    data.close();
    if (failure != null) {
      throw failure;
    }
  }

  /** Reads one BLOB column's values in row order across its blob files. */
  private static final class BlobColumnCursor {
    private final String column;
    private final BlobValueCodec codec;
    private final List<DataFileMeta> files;
    private final Function<DataFileMeta, Path> paths;
    private final Configuration conf;
    private int nextFile;
    @Nullable private BlobFileReader reader;
    private Path path;
    private int position;

    BlobColumnCursor(
        String column,
        BlobValueCodec codec,
        List<DataFileMeta> files,
        Function<DataFileMeta, Path> paths,
        Configuration conf) {
      this.column = column;
      this.codec = codec;
      this.files = files;
      this.paths = paths;
      this.conf = conf;
    }

    @Nullable
    Object next(String dataFile, long row) {
      try {
        while (reader == null || position >= reader.rowCount()) {
          close();
          if (nextFile >= files.size()) {
            throw new BasaltException(
                String.format(
                    "Data file %s has more rows than the blob files of its column '%s' (row %s)",
                    dataFile, column, row));
          }
          DataFileMeta file = files.get(nextFile++);
          path = paths.apply(file);
          reader = BlobFileReader.open(path.getFileSystem(conf), path, file.fileSize());
          position = 0;
        }
        return codec.read(reader, position++);
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to read blob file " + path, e);
      }
    }

    void close() {
      if (reader != null) {
        BlobFileReader closing = reader;
        reader = null;
        CloseableIterator.closeQuietlyUnchecked(closing, "blob file " + path);
      }
    }
  }

  /** A row of the read schema over a data-file row and the BLOB values read beside it. */
  private static final class JoinedView extends DelegatingRow {
    // >= 0: position in the data row; < 0: -1 - position in the blob values
    private final int[] index;
    private InternalRow dataRow;
    private InternalRow blobRow;

    JoinedView(DataType[] types, int[] index) {
      super(types);
      this.index = index;
    }

    JoinedView replace(InternalRow data, InternalRow blobs) {
      this.dataRow = data;
      this.blobRow = blobs;
      return this;
    }

    @Override
    protected InternalRow row(int ordinal) {
      return index[ordinal] >= 0 ? dataRow : blobRow;
    }

    @Override
    protected int index(int ordinal) {
      int i = index[ordinal];
      return i >= 0 ? i : -1 - i;
    }
  }
}
