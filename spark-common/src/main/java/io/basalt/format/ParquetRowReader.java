package io.basalt.format;

import io.basalt.BasaltException;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.util.NoSuchElementException;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * Streams the rows of one Parquet data file as Spark {@link InternalRow}s of a requested schema.
 *
 * <p>Only the requested columns are read. Requested fields are matched to file columns by field id
 * (metadata {@link io.basalt.schema.DataField#FIELD_ID_KEY}) when the file carries ids, and by name
 * otherwise; a requested field the file lacks reads as null. Nested structs, arrays and maps are
 * supported. Strings and binaries are copied out of Parquet's buffers.
 *
 * <p><b>The returned row is reused:</b> every {@link #next()} (and {@link #hasNext()} after a
 * {@code next()}) overwrites the same mutable row, so callers that keep a row must {@code copy()}
 * it first. Rows are decoded one at a time; a file is never loaded whole. Not thread-safe.
 */
public final class ParquetRowReader implements CloseableIterator<InternalRow> {
  private final Path path;
  private final ParquetFileReader reader;
  private final MessageColumnIO columnIO;
  private final GroupConverters.StructConverter root;
  private final RecordMaterializer<InternalRow> materializer;
  private RecordReader<InternalRow> records;
  private long remainingInGroup;
  private boolean fetched;
  private boolean finished;

  private ParquetRowReader(Path path, ParquetFileReader reader, StructType readSchema) {
    this.path = path;
    this.reader = reader;
    MessageType fileSchema = reader.getFileMetaData().getSchema();
    MessageType requested = ReadProjection.requestedSchema(fileSchema, readSchema);
    reader.setRequestedSchema(requested);
    this.columnIO =
        new ColumnIOFactory(reader.getFileMetaData().getCreatedBy())
            .getColumnIO(requested, fileSchema, true);
    this.root =
        new GroupConverters.StructConverter(requested, readSchema, null, true, "", path.toString());
    this.materializer =
        new RecordMaterializer<>() {
          @Override
          public InternalRow getCurrentRecord() {
            return root.row();
          }

          @Override
          public GroupConverter getRootConverter() {
            return root;
          }
        };
  }

  /**
   * Opens {@code path} for reading rows of {@code readSchema}.
   *
   * @param filter a Parquet predicate over the file's column paths, used to skip row groups whose
   *     statistics or dictionaries prove no row matches; rows of the remaining row groups are
   *     returned unfiltered. Null reads every row group.
   * @throws BasaltException naming the path when the file is missing or not a valid Parquet file,
   *     or when a requested column has an incompatible type
   */
  public static ParquetRowReader open(
      Configuration conf, Path path, StructType readSchema, @Nullable FilterCompat.Filter filter) {
    ParquetReadOptions options =
        HadoopReadOptions.builder(conf, path)
            .withRecordFilter(filter == null ? FilterCompat.NOOP : filter)
            .useStatsFilter(true)
            .useDictionaryFilter(true)
            .useColumnIndexFilter(false)
            .useRecordFilter(false)
            .build();
    ParquetFileReader reader;
    try {
      reader = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf), options);
    } catch (IOException | RuntimeException e) {
      throw new BasaltException("Failed to open Parquet file " + path + ": " + e.getMessage(), e);
    }
    try {
      return new ParquetRowReader(path, reader, readSchema);
    } catch (RuntimeException e) {
      CloseableIterator.closeQuietlyUnchecked(reader, "Parquet file " + path);
      throw e;
    }
  }

  @Override
  public boolean hasNext() {
    if (!fetched && !finished) {
      fetched = advance();
      finished = !fetched;
    }
    return fetched;
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException("No more rows in Parquet file " + path);
    }
    fetched = false;
    return root.row();
  }

  private boolean advance() {
    try {
      while (remainingInGroup == 0) {
        PageReadStore pages = reader.readNextRowGroup();
        if (pages == null) {
          return false;
        }
        remainingInGroup = pages.getRowCount();
        records = columnIO.getRecordReader(pages, materializer);
      }
      records.read();
      remainingInGroup--;
      return true;
    } catch (IOException | RuntimeException e) {
      throw new BasaltException("Failed to read Parquet file " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    CloseableIterator.closeQuietlyUnchecked(reader, "Parquet file " + path);
  }
}
