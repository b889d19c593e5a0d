package io.basalt.format.avro;

import io.basalt.BasaltException;
import io.basalt.format.FormatWriter;
import io.basalt.format.StatsCollector;
import io.basalt.format.WrittenFile;
import io.basalt.utils.Check;
import java.io.IOException;
import java.util.Locale;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * Writes Spark rows to one Avro data file as Paimon's Avro format does ({@link AvroDataSchemas}).
 * Avro files keep no column statistics, so they are collected while writing, as Paimon does.
 */
public final class AvroFileWriter implements FormatWriter {
  /** Paimon's default zstd level ({@code file.compression.zstd-level}). */
  private static final int ZSTD_LEVEL = 1;

  private final Path path;
  private final FSDataOutputStream out;
  private final DataFileWriter<InternalRow> writer;
  private final StatsCollector stats;
  private long rowCount;
  private WrittenFile result;
  private boolean closed;

  /**
   * Creates {@code path} for rows of {@code fileSchema}.
   *
   * @param compression {@code file.compression}: zstd, snappy, gzip (Avro's deflate) or none
   * @throws IllegalArgumentException when a column type or the codec has no Avro form
   * @throws BasaltException when the file cannot be created
   */
  public AvroFileWriter(
      Configuration conf, Path path, StructType fileSchema, String compression, boolean overwrite) {
    this.path = path;
    Schema schema = AvroDataSchemas.toAvro(fileSchema);
    CodecFactory codec = codec(compression);
    this.stats = new StatsCollector(fileSchema);
    try {
      this.out = path.getFileSystem(conf).create(path, overwrite);
    } catch (IOException e) {
      throw new BasaltException("Failed to create Avro file " + path + ": " + e, e);
    }
    this.writer = new DataFileWriter<>(new RowDatumWriter(fileSchema));
    writer.setCodec(codec);
    try {
      writer.create(schema, out);
    } catch (IOException | RuntimeException e) {
      abort();
      throw new BasaltException("Failed to start Avro file " + path + ": " + e, e);
    }
  }

  static CodecFactory codec(String compression) {
    return switch (compression.trim().toLowerCase(Locale.ROOT)) {
      case "zstd" -> CodecFactory.zstandardCodec(ZSTD_LEVEL);
      case "snappy" -> CodecFactory.snappyCodec();
      case "gzip", "deflate" -> CodecFactory.deflateCodec(CodecFactory.DEFAULT_DEFLATE_LEVEL);
      case "none", "uncompressed" -> CodecFactory.nullCodec();
      default ->
          throw new IllegalArgumentException(
              String.format(
                  "Invalid value '%s' for option 'file.compression' with 'file.format' = 'avro':"
                      + " Avro data files support zstd, snappy, gzip and none. Fix: set"
                      + " 'file.compression' to one of them.",
                  compression));
    };
  }

  @Override
  public void write(InternalRow row) {
    try {
      writer.append(row);
    } catch (IOException | RuntimeException e) {
      throw new BasaltException("Failed to write to Avro file " + path + ": " + e.getMessage(), e);
    }
    stats.update(row);
    rowCount++;
  }

  @Override
  public long rowCount() {
    return rowCount;
  }

  @Override
  public long estimatedSize() {
    // the open block (at most Avro's sync interval, 64 KB by default) is not counted
    return out.getPos();
  }

  @Override
  public WrittenFile finish() {
    if (result != null) {
      return result;
    }
    Check.state(!closed, "Avro writer for %s was aborted", path);
    closed = true;
    try {
      writer.close();
      long size = out.getPos();
      result = new WrittenFile(size, rowCount, stats.result());
      return result;
    } catch (IOException e) {
      throw new BasaltException("Failed to finish Avro file " + path, e);
    }
  }

  @Override
  public void close() {
    if (!closed) {
      finish();
    }
  }

  @Override
  public void abort() {
    if (!closed) {
      closed = true;
      try {
        out.close();
      } catch (IOException | RuntimeException e) {
        // the file is discarded anyway
      }
    }
  }

  /** Encodes rows with writers built once from the file schema. */
  private static final class RowDatumWriter implements DatumWriter<InternalRow> {
    private final AvroValueWriters.RowWriter row;

    RowDatumWriter(StructType fileSchema) {
      this.row = new AvroValueWriters.RowWriter(fileSchema);
    }

    @Override
    public void setSchema(Schema schema) {}

    @Override
    public void write(InternalRow datum, Encoder out) throws IOException {
      row.write(datum, out);
    }
  }
}
