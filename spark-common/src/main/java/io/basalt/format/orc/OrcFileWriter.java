package io.basalt.format.orc;

import io.basalt.BasaltException;
import io.basalt.format.FormatWriter;
import io.basalt.format.StatsCollector;
import io.basalt.format.WrittenFile;
import io.basalt.utils.Check;
import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * Writes Spark rows to one ORC data file as Paimon's ORC format does ({@link OrcSchemas}), a batch
 * of {@value #BATCH_SIZE} rows at a time. Column statistics are collected while writing (exact
 * values, the same form as the Parquet and Avro writers give), not read back from the ORC footer.
 */
public final class OrcFileWriter implements FormatWriter {
  /** Rows buffered before a batch is handed to ORC; Paimon's {@code write.batch-size}. */
  static final int BATCH_SIZE = 1024;

  /** Paimon's default zstd level ({@code file.compression.zstd-level}). */
  private static final int ZSTD_LEVEL = 1;

  private final Path path;
  private final Configuration conf;
  private final Writer writer;
  private final VectorizedRowBatch batch;
  private final OrcValueWriters.ValueWriter[] writers;
  private final StatsCollector stats;
  private long rowCount;
  private WrittenFile result;
  private boolean closed;

  /**
   * Creates {@code path} for rows of {@code fileSchema}.
   *
   * @param compression {@code file.compression}: zstd, snappy, gzip (ORC's zlib), lz4 or none
   * @throws IllegalArgumentException when a column type or the codec has no ORC form
   * @throws BasaltException when the file cannot be created
   */
  public OrcFileWriter(
      Configuration conf, Path path, StructType fileSchema, String compression, boolean overwrite) {
    this.path = path;
    this.conf = conf;
    TypeDescription schema = OrcSchemas.toOrc(fileSchema);
    CompressionKind kind = compression(compression);
    this.writers = OrcValueWriters.forStruct(fileSchema);
    this.stats = new StatsCollector(fileSchema);
    Configuration writerConf = new Configuration(conf);
    writerConf.set(OrcConf.COMPRESSION_ZSTD_LEVEL.getAttribute(), String.valueOf(ZSTD_LEVEL));
    try {
      this.writer =
          OrcFile.createWriter(
              path,
              OrcFile.writerOptions(writerConf)
                  .setSchema(schema)
                  .compress(kind)
                  .overwrite(overwrite));
    } catch (IOException | RuntimeException e) {
      throw new BasaltException("Failed to create ORC file " + path + ": " + e, e);
    }
    this.batch = schema.createRowBatch(BATCH_SIZE);
  }

  static CompressionKind compression(String compression) {
    return switch (compression.trim().toLowerCase(Locale.ROOT)) {
      case "zstd" -> CompressionKind.ZSTD;
      case "snappy" -> CompressionKind.SNAPPY;
      case "gzip", "zlib" -> CompressionKind.ZLIB;
      case "lz4" -> CompressionKind.LZ4;
      case "none", "uncompressed" -> CompressionKind.NONE;
      default ->
          throw new IllegalArgumentException(
              String.format(
                  "Invalid value '%s' for option 'file.compression' with 'file.format' = 'orc':"
                      + " ORC data files support zstd, snappy, gzip, lz4 and none. Fix: set"
                      + " 'file.compression' to one of them.",
                  compression));
    };
  }

  @Override
  public void write(InternalRow row) {
    int r = batch.size;
    try {
      for (int i = 0; i < writers.length; i++) {
        OrcValueWriters.writeField(row, i, writers[i], batch.cols[i], r);
      }
    } catch (IllegalArgumentException e) {
      // the row stays out of the batch: its slot is overwritten by the next row
      throw new BasaltException("Cannot write to ORC data file " + path + ": " + e.getMessage(), e);
    }
    batch.size++;
    stats.update(row);
    rowCount++;
    if (batch.size == batch.getMaxSize()) {
      flushBatch();
    }
  }

  private void flushBatch() {
    try {
      writer.addRowBatch(batch);
    } catch (IOException | RuntimeException e) {
      throw new BasaltException("Failed to write to ORC file " + path + ": " + e.getMessage(), e);
    }
    batch.reset();
  }

  @Override
  public long rowCount() {
    return rowCount;
  }

  @Override
  public long estimatedSize() {
    long stripes = 0;
    try {
      for (StripeInformation stripe : writer.getStripes()) {
        stripes += stripe.getLength();
      }
    } catch (IOException e) {
      throw new BasaltException("Failed to size ORC file " + path, e);
    }
    // the open stripe's memory, compressed, is roughly a fifth of it (Paimon's estimate)
    return stripes + writer.estimateMemory() / 5;
  }

  @Override
  public WrittenFile finish() {
    if (result != null) {
      return result;
    }
    Check.state(!closed, "ORC writer for %s was aborted", path);
    closed = true;
    try {
      if (batch.size > 0) {
        writer.addRowBatch(batch);
        batch.reset();
      }
      writer.close();
      long size = path.getFileSystem(conf).getFileStatus(path).getLen();
      result = new WrittenFile(size, rowCount, stats.result());
      return result;
    } catch (IOException e) {
      throw new BasaltException("Failed to finish ORC file " + path, e);
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
        writer.close();
      } catch (IOException | RuntimeException e) {
        // the file is discarded anyway
      }
    }
  }
}
