package io.basalt.format;

import io.basalt.BasaltException;
import io.basalt.utils.Check;
import java.io.IOException;
import java.util.Locale;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * Writes Spark rows to one Parquet data file in Paimon's layout (see {@link ParquetSchemas}).
 *
 * <p>Rows are encoded straight from their internal values by writers built once from the file
 * schema. Statistics come from the file footer when the file is finished. With {@link
 * DictionaryHints} in the options, the columns whose dictionary earlier files of the write dropped
 * are written plainly, and the finished file's encodings are fed back. Not thread-safe; a failed
 * writer should be {@link #abort() aborted} so the partial file can be deleted.
 */
public final class ParquetRowWriter implements FormatWriter {
  private final Configuration conf;
  private final Path path;
  private final StructType fileSchema;
  private final ParquetWriter<InternalRow> writer;
  @Nullable private final DictionaryHints hints;
  private long rowCount;
  private WrittenFile result;
  private boolean closed;

  /**
   * Creates {@code path} and prepares to write rows of {@code fileSchema}, whose fields carry their
   * field ids in metadata.
   *
   * @throws BasaltException when the file cannot be created (for example it exists and {@code
   *     options.overwrite()} is false)
   * @throws IllegalArgumentException when the codec is unknown or a field has no id
   */
  public ParquetRowWriter(
      Configuration conf, Path path, StructType fileSchema, ParquetWriteOptions options) {
    this.conf = conf;
    this.path = path;
    this.fileSchema = fileSchema;
    this.hints = options.dictionaryHints();
    CompressionCodecName codec = codec(options.compression());
    RowWriteSupport support = new RowWriteSupport(fileSchema);
    try {
      Builder builder =
          new Builder(HadoopOutputFile.fromPath(path, conf), support)
              .withConf(conf)
              .withCompressionCodec(codec)
              .withRowGroupSize(options.rowGroupSize())
              .withPageSize(options.pageSize())
              .withWriteMode(
                  options.overwrite()
                      ? ParquetFileWriter.Mode.OVERWRITE
                      : ParquetFileWriter.Mode.CREATE);
      ParquetConfSettings.apply(builder, conf, fileSchema);
      if (hints != null) {
        for (String column : hints.nextFile()) {
          builder.withDictionaryEncoding(column, false);
        }
      }
      this.writer = builder.build();
    } catch (IOException e) {
      throw new BasaltException("Failed to create Parquet file " + path + ": " + e, e);
    }
  }

  /**
   * Appends {@code row}, which must match the file schema. The row is not retained.
   *
   * @throws IllegalArgumentException when a NOT NULL column holds null or a decimal is too wide
   * @throws BasaltException when writing fails
   */
  public void write(InternalRow row) {
    try {
      writer.write(row);
    } catch (IOException e) {
      throw new BasaltException("Failed to write to Parquet file " + path, e);
    }
    rowCount++;
  }

  /** The number of rows written so far. */
  public long rowCount() {
    return rowCount;
  }

  /** The bytes written plus those buffered for the open row group; use it to roll files. */
  public long estimatedSize() {
    return writer.getDataSize();
  }

  /**
   * Finishes the file and returns its size, row count and column statistics. Calling it again
   * returns the same result.
   *
   * @throws IllegalStateException when the writer was aborted
   * @throws BasaltException when the file cannot be finished
   */
  public WrittenFile finish() {
    if (result != null) {
      return result;
    }
    Check.state(!closed, "Parquet writer for %s was aborted", path);
    closed = true;
    try {
      writer.close();
      ParquetMetadata footer = writer.getFooter();
      if (hints != null) {
        hints.learn(footer);
      }
      long fileSize = path.getFileSystem(conf).getFileStatus(path).getLen();
      result = new WrittenFile(fileSize, rowCount, FooterStats.of(footer, fileSchema));
      return result;
    } catch (IOException e) {
      throw new BasaltException("Failed to finish Parquet file " + path, e);
    }
  }

  /**
   * Finishes the file like {@link #finish()} unless it was already finished or aborted. {@link
   * java.io.Closeable#close()} cannot return a value, so callers that need the file's stats call
   * {@link #finish()} first; this makes try-with-resources safe.
   */
  @Override
  public void close() {
    if (!closed) {
      finish();
    }
  }

  /** Releases the writer after a failure, ignoring errors; the caller deletes the file. */
  public void abort() {
    if (!closed) {
      closed = true;
      try {
        writer.close();
      } catch (IOException | RuntimeException e) {
        // the file is discarded anyway
      }
    }
  }

  private static CompressionCodecName codec(String name) {
    try {
      return CompressionCodecName.valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Unknown Parquet compression '"
              + name
              + "': expected one of zstd, snappy, gzip, lz4_raw,"
              + " uncompressed",
          e);
    }
  }

  private static final class Builder extends ParquetWriter.Builder<InternalRow, Builder> {
    private final RowWriteSupport support;

    Builder(OutputFile file, RowWriteSupport support) {
      super(file);
      this.support = support;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<InternalRow> getWriteSupport(Configuration conf) {
      return support;
    }
  }
}
