package io.basalt.operation.read;

import io.basalt.data.OffsetRow;
import io.basalt.format.ParquetRowReader;
import io.basalt.fs.DataFilePaths;
import io.basalt.manifest.DataFileMeta;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.mergetree.MergeIterator;
import io.basalt.schema.DataField;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Reads the rows of a split as table rows restricted to a read schema. Append files and
 * raw-convertible splits are read file after file; other primary-key splits are merged by {@link
 * MergeIterator}. Rows are reused between calls.
 */
public final class SplitRead implements Serializable {
  private static final long serialVersionUID = 1L;

  private final FileStoreTable table;
  private final StructType readType;
  private final DataFilePaths dataPaths;

  /**
   * @param readType table columns to produce (each carrying its field id), in output order
   */
  public SplitRead(FileStoreTable table, StructType readType) {
    this.table = table;
    this.readType = withFieldIds(table, readType);
    this.dataPaths = table.dataFilePaths();
  }

  private static StructType withFieldIds(FileStoreTable table, StructType readType) {
    List<StructField> fields = new ArrayList<>();
    for (StructField field : readType.fields()) {
      DataField column = table.schema().field(field.name());
      fields.add(column == null ? field : column.toStructField());
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  public StructType readType() {
    return readType;
  }

  /** The rows of {@code split}; close the iterator when done. */
  public CloseableIterator<InternalRow> read(DataSplit split) {
    if (!table.hasPrimaryKey() || split.rawConvertible()) {
      return new ConcatIterator(split.files(), file -> open(split, file, readType));
    }
    KeyValueLayout layout = new KeyValueLayout(table.schema());
    List<DataField> values = new ArrayList<>();
    for (StructField field : readType.fields()) {
      values.add(table.schema().field(field.name()));
    }
    StructType kvType = layout.schemaWithValues(values);
    List<CloseableIterator<InternalRow>> runs = new ArrayList<>();
    try {
      for (DataFileMeta file : split.files()) {
        runs.add(open(split, file, kvType));
      }
    } catch (RuntimeException e) {
      for (CloseableIterator<InternalRow> run : runs) {
        try {
          run.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
    MergeIterator merged = new MergeIterator(runs, layout);
    DataType[] types = new DataType[readType.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = readType.fields()[i].dataType();
    }
    OffsetRow view = new OffsetRow(types, layout.valueOffset());
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return merged.hasNext();
      }

      @Override
      public InternalRow next() {
        return view.replace(merged.next());
      }

      @Override
      public void close() {
        merged.close();
      }
    };
  }

  /** The full path of {@code file} of {@code split}. */
  public Path path(DataSplit split, DataFileMeta file) {
    return new Path(dataPaths.bucketDir(split.partition(), split.bucket()), file.fileName());
  }

  private CloseableIterator<InternalRow> open(
      DataSplit split, DataFileMeta file, StructType schema) {
    return ParquetRowReader.open(table.fileIO().conf(), path(split, file), schema, null);
  }
}
