package io.basalt.format.avro;

import io.basalt.BasaltException;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.io.InputStream;
import java.util.NoSuchElementException;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * Streams the rows of one Avro data file (Basalt's or Paimon's) as Spark rows of a requested
 * schema, one block at a time. Columns are matched by field id when the file carries ids, else by
 * name (Paimon's files); unrequested columns are skipped, missing ones read as null.
 *
 * <p><b>The returned row is reused</b> between calls; copy it to keep it. Not thread-safe.
 */
public final class AvroFileReader implements CloseableIterator<InternalRow> {
  private final Path path;
  private final DataFileStream<InternalRow> stream;
  private final GenericInternalRow row;

  private AvroFileReader(Path path, DataFileStream<InternalRow> stream, GenericInternalRow row) {
    this.path = path;
    this.stream = stream;
    this.row = row;
  }

  /**
   * Opens {@code path} for rows of {@code readSchema}.
   *
   * @throws BasaltException naming the file when it is missing, not Avro, or holds a column whose
   *     type cannot be read as the requested one
   */
  public static AvroFileReader open(Configuration conf, Path path, StructType readSchema) {
    GenericInternalRow row = new GenericInternalRow(readSchema.size());
    InputStream in;
    try {
      in = path.getFileSystem(conf).open(path);
    } catch (IOException e) {
      throw new BasaltException("Failed to open Avro file " + path + ": " + e.getMessage(), e);
    }
    try {
      return new AvroFileReader(
          path, new DataFileStream<>(in, new RowDatumReader(readSchema, row, path)), row);
    } catch (IOException | RuntimeException e) {
      try {
        in.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw new BasaltException("Failed to open Avro file " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public boolean hasNext() {
    try {
      return stream.hasNext();
    } catch (RuntimeException e) {
      throw new BasaltException("Failed to read Avro file " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException("No more rows in Avro file " + path);
    }
    try {
      return stream.next(row);
    } catch (IOException | RuntimeException e) {
      throw new BasaltException("Failed to read Avro file " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      stream.close();
    } catch (IOException e) {
      throw new BasaltException("Failed to close Avro file " + path, e);
    }
  }

  /** Decodes into one reused row, with readers built from the file's schema when it is known. */
  private static final class RowDatumReader implements DatumReader<InternalRow> {
    private final StructType readSchema;
    private final GenericInternalRow row;
    private final Path path;
    private AvroValueReaders.RecordReader reader;

    RowDatumReader(StructType readSchema, GenericInternalRow row, Path path) {
      this.readSchema = readSchema;
      this.row = row;
      this.path = path;
    }

    @Override
    public void setSchema(Schema writerSchema) {
      this.reader = new AvroValueReaders.RecordReader(writerSchema, readSchema, path.getName());
    }

    @Override
    public InternalRow read(InternalRow reuse, Decoder in) throws IOException {
      reader.readInto(in, row);
      return row;
    }
  }
}
