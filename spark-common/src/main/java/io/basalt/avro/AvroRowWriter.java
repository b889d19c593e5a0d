package io.basalt.avro;

import io.basalt.utils.Check;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * Streams rows into an Avro object container file compressed with zstandard, as Paimon writes its
 * manifests, manifest lists and index manifests ({@code manifest.compression=zstd}, level 1). Each
 * value is turned into a {@link GenericRecord} of the file's schema by a caller's encoder.
 *
 * @param <T> the value each row is encoded from
 */
public final class AvroRowWriter<T> implements RowWriter<T> {
  private static final int ZSTD_LEVEL = 1;

  private final DataFileWriter<GenericRecord> writer;
  private final Function<T, GenericRecord> encoder;
  private final String description;
  private long count;
  private boolean closed;

  /**
   * Starts a file of {@code schema} on {@code out}.
   *
   * @param out the output, which {@link #close()} closes
   * @param schema the schema of the rows, written into the file header
   * @param encoder turns a value into a record of {@code schema}
   * @param description names the file in errors, such as {@code "manifest manifest-1"}
   * @throws UncheckedIOException if the header cannot be written; {@code out} is then closed
   */
  public AvroRowWriter(
      OutputStream out, Schema schema, Function<T, GenericRecord> encoder, String description) {
    Check.notNull(out, "out");
    this.encoder = encoder;
    this.description = description;
    this.writer = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema));
    writer.setCodec(CodecFactory.zstandardCodec(ZSTD_LEVEL));
    try {
      writer.create(schema, out);
    } catch (IOException | RuntimeException e) {
      closeAfterFailure(out, e);
      throw e instanceof IOException io ? wrap("write", io) : (RuntimeException) e;
    }
  }

  private static void closeAfterFailure(OutputStream out, Exception failure) {
    try {
      out.close();
    } catch (IOException suppressed) {
      failure.addSuppressed(suppressed);
    }
  }

  @Override
  public void write(T value) {
    Check.notNull(value, "value");
    Check.state(!closed, "Cannot write to %s: the writer is closed", description);
    try {
      writer.append(encoder.apply(value));
    } catch (IOException e) {
      throw wrap("write", e);
    }
    count++;
  }

  @Override
  public long count() {
    return count;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      writer.close();
    } catch (IOException e) {
      throw wrap("close", e);
    }
  }

  private UncheckedIOException wrap(String action, IOException e) {
    return new UncheckedIOException("Failed to " + action + " " + description, e);
  }
}
