package io.basalt.spark.read;

import io.basalt.BasaltException;
import io.basalt.format.orc.OrcColumns;
import java.io.IOException;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.MapColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one ORC data file (Basalt's or Paimon's) as columnar batches of the requested table
 * columns, with orc-core's vectorized reader: only the requested columns (and nested fields) are
 * decoded, matched by field id so files of older schemas resolve renamed and added columns, and the
 * batch's vectors read ORC's vectors in place. Pushed filters become an ORC search argument that
 * skips stripes and row groups ({@link OrcSearchArguments}); {@link #firstRow()} is the position in
 * the file of the current batch's first row, right across skipped row groups, because ORC never
 * returns a batch that spans a skipped row group.
 *
 * <p>The batch returned by {@link #batch()} is reused, valid until the next {@link #next()}.
 */
final class OrcFileBatches implements AutoCloseable {
  private final Path path;
  private final Reader reader;
  private final RecordReader rows;
  private final VectorizedRowBatch orcBatch;
  private final ColumnVector[] vectors;
  private final ColumnarBatch batch;

  /** The first row of each stripe, and the row count of the file last. */
  private final long[] stripeStarts;

  private final long rowIndexStride;
  private long firstRow;
  private long nextExpected;
  private long rowGroupsSkipped;
  private long rowsSkipped;

  private OrcFileBatches(
      Path path, Reader reader, StructType requested, @Nullable SearchArgument filter, int size)
      throws IOException {
    this.path = path;
    this.reader = reader;
    TypeDescription schema = reader.getSchema();
    boolean[] include = new boolean[schema.getMaximumId() + 1];
    include[0] = true;
    int[] columns = new int[requested.size()];
    for (int f = 0; f < columns.length; f++) {
      columns[f] = OrcColumns.childIndex(schema, requested.fields()[f]);
      if (columns[f] >= 0) {
        include(schema.getChildren().get(columns[f]), requested.fields()[f].dataType(), include);
      }
    }
    Reader.Options options = reader.options().include(include);
    if (filter != null) {
      options.searchArgument(filter, schema.getFieldNames().toArray(new String[0]));
    }
    this.rows = reader.rows(options);
    this.orcBatch = schema.createRowBatch(size);
    this.vectors = new ColumnVector[columns.length];
    for (int f = 0; f < columns.length; f++) {
      DataType type = requested.fields()[f].dataType();
      vectors[f] =
          columns[f] < 0
              ? nullVector(type)
              : vector(schema.getChildren().get(columns[f]), type, orcBatch.cols[columns[f]]);
    }
    this.batch = new ColumnarBatch(vectors);
    List<StripeInformation> stripes = reader.getStripes();
    this.stripeStarts = new long[stripes.size() + 1];
    for (int s = 0; s < stripes.size(); s++) {
      stripeStarts[s + 1] = stripeStarts[s] + stripes.get(s).getNumberOfRows();
    }
    this.rowIndexStride = reader.getRowIndexStride();
  }

  /**
   * Opens {@code path} for batches of {@code requested} (table columns carrying field ids, CHAR and
   * VARCHAR as STRING), skipping what {@code filters} rule out when {@code options} push filters.
   *
   * @throws BasaltException naming the file when it is missing or not a valid ORC file
   */
  static OrcFileBatches open(
      Configuration conf,
      Path path,
      StructType requested,
      OrcReadOptions options,
      Filter[] filters) {
    Reader reader;
    try {
      reader = OrcFile.createReader(path, OrcFile.readerOptions(conf));
    } catch (IOException | RuntimeException e) {
      throw failure("open", path, e);
    }
    try {
      SearchArgument filter =
          options.filterPushDown()
              ? OrcSearchArguments.of(reader.getSchema(), requested, filters)
              : null;
      return new OrcFileBatches(path, reader, requested, filter, options.batchSize());
    } catch (IOException | RuntimeException e) {
      try {
        reader.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw failure("open", path, e);
    }
  }

  /** Reads the next batch; false at the end of the file. */
  boolean next() {
    try {
      // the reader is positioned at the next row it returns, past any skipped row groups
      firstRow = rows.getRowNumber();
      if (!rows.nextBatch(orcBatch) || orcBatch.size == 0) {
        countSkipped(reader.getNumberOfRows());
        return false;
      }
    } catch (IOException | RuntimeException e) {
      throw failure("read", path, e);
    }
    countSkipped(firstRow);
    nextExpected = firstRow + orcBatch.size;
    for (ColumnVector vector : vectors) {
      if (vector instanceof OrcVector orc) {
        orc.setRows(orcBatch.size);
      }
    }
    batch.setNumRows(orcBatch.size);
    return true;
  }

  /** Counts the rows and row groups the search argument skipped before row {@code row}. */
  private void countSkipped(long row) {
    if (row <= nextExpected) {
      return;
    }
    rowsSkipped += row - nextExpected;
    // skipped row groups start at a group boundary and end at one or at a stripe end
    for (int s = 0; s + 1 < stripeStarts.length && rowIndexStride > 0; s++) {
      long from = Math.max(nextExpected, stripeStarts[s]);
      long to = Math.min(row, stripeStarts[s + 1]);
      if (from < to) {
        rowGroupsSkipped += (to - from + rowIndexStride - 1) / rowIndexStride;
      }
    }
    nextExpected = row;
  }

  /** The current batch; reused. */
  ColumnarBatch batch() {
    return batch;
  }

  /** The position in the file of the current batch's first row; its rows follow without gaps. */
  long firstRow() {
    return firstRow;
  }

  long rowGroupsSkipped() {
    return rowGroupsSkipped;
  }

  long rowsSkipped() {
    return rowsSkipped;
  }

  @Override
  public void close() {
    OrcColumns.close(rows, reader, path);
  }

  private static BasaltException failure(String action, Path path, Exception e) {
    return new BasaltException(
        "Failed to " + action + " ORC file " + path + ": " + e.getMessage(), e);
  }

  /** Marks the ORC columns of {@code file} that a read of {@code type} decodes. */
  private static void include(TypeDescription file, DataType type, boolean[] include) {
    include[file.getId()] = true;
    if (type instanceof StructType struct
        && file.getCategory() == TypeDescription.Category.STRUCT) {
      for (StructField field : struct.fields()) {
        int child = OrcColumns.childIndex(file, field);
        if (child >= 0) {
          include(file.getChildren().get(child), field.dataType(), include);
        }
      }
    } else {
      for (int id = file.getId(); id <= file.getMaximumId(); id++) {
        include[id] = true;
      }
    }
  }

  /**
   * A Spark vector of {@code type} over the ORC vector {@code data} of the file type {@code file}.
   */
  private static OrcVector vector(
      TypeDescription file,
      DataType type,
      org.apache.hadoop.hive.ql.exec.vector.ColumnVector data) {
    if (type instanceof StructType struct) {
      ColumnVector[] children = new ColumnVector[struct.size()];
      var structData = (org.apache.hadoop.hive.ql.exec.vector.StructColumnVector) data;
      for (int f = 0; f < children.length; f++) {
        StructField field = struct.fields()[f];
        int child = OrcColumns.childIndex(file, field);
        children[f] =
            child < 0
                ? nullVector(field.dataType())
                : vector(file.getChildren().get(child), field.dataType(), structData.fields[child]);
      }
      return new OrcNestedVectors.Struct(type, data, children);
    } else if (type instanceof ArrayType array) {
      ListColumnVector list = (ListColumnVector) data;
      return new OrcNestedVectors.Array(
          type, list, vector(file.getChildren().get(0), array.elementType(), list.child));
    } else if (type instanceof MapType map) {
      MapColumnVector entries = (MapColumnVector) data;
      return new OrcNestedVectors.Map(
          type,
          entries,
          vector(file.getChildren().get(0), map.keyType(), entries.keys),
          vector(file.getChildren().get(1), map.valueType(), entries.values));
    }
    return new OrcValueVector(type, data);
  }

  /** All nulls: a column (or nested field) added after the file was written. */
  private static ColumnVector nullVector(DataType type) {
    ConstantColumnVector vector = new ConstantColumnVector(1, type);
    vector.setNull();
    if (type instanceof StructType struct) {
      for (int f = 0; f < struct.size(); f++) {
        vector.setChild(f, (ConstantColumnVector) nullVector(struct.fields()[f].dataType()));
      }
    }
    return vector;
  }
}
