package io.basalt.avro;

import io.basalt.BasaltException;
import io.basalt.utils.CloseableIterator;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.NoSuchElementException;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads the rows of a versioned Avro object container file (a manifest, manifest list or index
 * manifest) lazily, one block at a time, as {@link GenericRecord}s in the file's own (writer)
 * schema, and decodes each with a caller's function that looks fields up by name (see {@link
 * AvroFields}).
 *
 * <p>Every row must carry an int {@link #VERSION} field equal to the expected version. A file cut
 * short is detected even when the cut falls inside a block, which Avro alone reports as a clean end
 * of rows. Any failure, including corrupt or truncated input and decoder errors, becomes a {@link
 * BasaltException} whose message names the file.
 *
 * @param <T> the value each row decodes to
 */
public final class AvroRowReader<T> implements CloseableIterator<T> {
  /** The name of the int field that every row begins with, holding its format version. */
  public static final String VERSION = "_VERSION";

  private final DataFileStream<GenericRecord> stream;
  private final TailCheckingInputStream input;
  private final byte[] sync;
  private final Function<GenericRecord, T> decoder;
  private final int version;
  private final String description;
  private GenericRecord reuse;

  private AvroRowReader(
      DataFileStream<GenericRecord> stream,
      TailCheckingInputStream input,
      byte[] sync,
      Function<GenericRecord, T> decoder,
      int version,
      String description) {
    this.stream = stream;
    this.input = input;
    this.sync = sync;
    this.decoder = decoder;
    this.version = version;
    this.description = description;
  }

  /**
   * Opens the rows of {@code in}, which the returned iterator closes.
   *
   * @param in the whole file, from its first byte
   * @param version the {@link #VERSION} every row must carry
   * @param decoder turns a row into a value; an {@link IllegalArgumentException} or other runtime
   *     exception it throws becomes a {@link BasaltException} naming the file
   * @param description names the file in errors, such as {@code "manifest manifest-1"}
   * @throws BasaltException if the header cannot be read (then {@code in} is closed) or the rows
   *     have no {@link #VERSION} field
   */
  public static <T> CloseableIterator<T> open(
      InputStream in, int version, Function<GenericRecord, T> decoder, String description) {
    TailCheckingInputStream input = new TailCheckingInputStream(in);
    DataFileStream<GenericRecord> stream;
    byte[] sync;
    try {
      // a GenericData of its own: the shared one caches a reader per schema and never lets go
      stream = new DataFileStream<>(input, new GenericDatumReader<>(null, null, new GenericData()));
      sync = input.headerSync();
    } catch (IOException | RuntimeException e) {
      closeAfterFailure(in, e);
      throw failure(description, e);
    }
    Schema schema = stream.getSchema();
    if (schema.getType() != Schema.Type.RECORD || schema.getField(VERSION) == null) {
      BasaltException e =
          new BasaltException(
              "Failed to read " + description + ": its rows have no " + VERSION + " field");
      closeAfterFailure(stream, e);
      throw e;
    }
    return new AvroRowReader<>(stream, input, sync, decoder, version, description);
  }

  @Override
  public boolean hasNext() {
    boolean hasNext;
    try {
      hasNext = stream.hasNext();
    } catch (RuntimeException e) {
      throw failure(description, e);
    }
    if (!hasNext && !input.endedWith(sync)) {
      // Avro reports a block cut short as the end of the rows
      throw new BasaltException(
          "Failed to read "
              + description
              + ": the file is truncated (its last block is incomplete)",
          new EOFException("Input ended after " + input.delivered() + " bytes, inside a block"));
    }
    return hasNext;
  }

  @Override
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException("No more rows in " + description);
    }
    try {
      reuse = stream.next(reuse);
      checkVersion(AvroFields.requiredInt(reuse, VERSION));
      return decoder.apply(reuse);
    } catch (BasaltException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw failure(description, e);
    }
  }

  private void checkVersion(int found) {
    if (found > version) {
      throw new BasaltException(
          String.format(
              "Failed to read %s: written by a newer version (format %s, max supported %s)",
              description, found, version));
    } else if (found != version) {
      throw new BasaltException(
          String.format(
              "Failed to read %s: unsupported format version %s (expected %s)",
              description, found, version));
    }
  }

  @Override
  public void close() {
    try {
      stream.close();
    } catch (IOException e) {
      throw new BasaltException("Failed to close " + description, e);
    }
  }

  private static BasaltException failure(String description, Exception e) {
    String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new BasaltException("Failed to read " + description + ": " + reason, e);
  }

  private static void closeAfterFailure(AutoCloseable resource, Exception failure) {
    try {
      resource.close();
    } catch (Exception suppressed) {
      failure.addSuppressed(suppressed);
    }
  }
}
