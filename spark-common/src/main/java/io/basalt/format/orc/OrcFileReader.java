package io.basalt.format.orc;

import io.basalt.BasaltException;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Streams the rows of one ORC data file (Basalt's or Paimon's) as Spark rows of a requested schema,
 * a batch at a time. Only the requested top-level columns are decoded; they are matched by field id
 * ({@value OrcSchemas#FIELD_ID_ATTRIBUTE}) or, in files without ids, by name. A requested column
 * the file lacks reads as null. Rows come back in file order, so deletion-vector positions hold.
 *
 * <p><b>The returned row is reused</b> between calls; copy it to keep it. Not thread-safe.
 */
public final class OrcFileReader implements CloseableIterator<InternalRow> {
  private final Path path;
  private final Reader reader;
  private final RecordReader rows;
  private final VectorizedRowBatch batch;
  private final int[] columns;
  private final OrcValueReaders.ValueReader[] readers;
  private final GenericInternalRow row;
  private int position;
  private boolean finished;

  private OrcFileReader(Path path, Reader reader, StructType readSchema) throws IOException {
    this.path = path;
    this.reader = reader;
    TypeDescription schema = reader.getSchema();
    StructField[] fields = readSchema.fields();
    this.columns = new int[fields.length];
    this.readers = new OrcValueReaders.ValueReader[fields.length];
    boolean[] include = new boolean[schema.getMaximumId() + 1];
    include[0] = true;
    for (int f = 0; f < fields.length; f++) {
      columns[f] = OrcValueReaders.childIndex(schema, fields[f]);
      if (columns[f] >= 0) {
        TypeDescription column = schema.getChildren().get(columns[f]);
        readers[f] = OrcValueReaders.reader(column, fields[f].dataType(), fields[f].name());
        for (int id = column.getId(); id <= column.getMaximumId(); id++) {
          include[id] = true;
        }
      }
    }
    this.rows = reader.rows(reader.options().include(include));
    this.batch = schema.createRowBatch(OrcFileWriter.BATCH_SIZE);
    this.row = new GenericInternalRow(fields.length);
  }

  /**
   * Opens {@code path} for rows of {@code readSchema}.
   *
   * @throws BasaltException naming the file when it is missing or not a valid ORC file
   */
  public static OrcFileReader open(Configuration conf, Path path, StructType readSchema) {
    Reader reader;
    try {
      reader = OrcFile.createReader(path, OrcFile.readerOptions(conf));
    } catch (IOException | RuntimeException e) {
      throw new BasaltException("Failed to open ORC file " + path + ": " + e.getMessage(), e);
    }
    try {
      return new OrcFileReader(path, reader, readSchema);
    } catch (IOException | RuntimeException e) {
      try {
        reader.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw new BasaltException("Failed to open ORC file " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public boolean hasNext() {
    if (finished) {
      return false;
    }
    try {
      while (position >= batch.size) {
        if (!rows.nextBatch(batch)) {
          finished = true;
          return false;
        }
        position = 0;
      }
      return true;
    } catch (IOException | RuntimeException e) {
      throw new BasaltException("Failed to read ORC file " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException("No more rows in ORC file " + path);
    }
    int r = position++;
    for (int f = 0; f < columns.length; f++) {
      row.update(
          f,
          columns[f] < 0 ? null : OrcValueReaders.readField(readers[f], batch.cols[columns[f]], r));
    }
    return row;
  }

  @Override
  public void close() {
    OrcColumns.close(rows, reader, path);
  }
}
