package io.basalt.index;

import io.basalt.BasaltException;
import io.basalt.utils.CloseableIterator;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.NoSuchElementException;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads index manifest entries lazily, one Avro block at a time, decoding each row with the file's
 * own schema. Every row must carry {@code _VERSION} 1. Any failure, including corrupt or truncated
 * input, becomes a {@link BasaltException} naming the file.
 */
final class IndexAvroReader implements CloseableIterator<IndexManifestEntry> {
  private final DataFileStream<GenericRecord> stream;
  private final AvroTail input;
  private final byte[] sync;
  private final String description;
  private GenericRecord reuse;

  private IndexAvroReader(
      DataFileStream<GenericRecord> stream, AvroTail input, byte[] sync, String description) {
    this.stream = stream;
    this.input = input;
    this.sync = sync;
    this.description = description;
  }

  /** Opens {@code in}, closing it when the header cannot be read. */
  static CloseableIterator<IndexManifestEntry> open(InputStream in, String description) {
    AvroTail input = new AvroTail(in);
    DataFileStream<GenericRecord> stream;
    byte[] sync;
    try {
      stream = new DataFileStream<>(input, new GenericDatumReader<>());
      sync = input.headerSync();
    } catch (IOException | RuntimeException e) {
      closeAfterFailure(in, e);
      throw failure(description, e);
    }
    Schema schema = stream.getSchema();
    if (schema.getType() != Schema.Type.RECORD
        || schema.getField(IndexManifestCodec.VERSION_FIELD) == null) {
      BasaltException e =
          new BasaltException(
              "Failed to read "
                  + description
                  + ": its rows have no "
                  + IndexManifestCodec.VERSION_FIELD
                  + " field");
      closeAfterFailure(stream, e);
      throw e;
    }
    return new IndexAvroReader(stream, input, sync, description);
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
  public IndexManifestEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException("No more rows in " + description);
    }
    try {
      reuse = stream.next(reuse);
      checkVersion(IndexAvroFields.requiredInt(reuse, IndexManifestCodec.VERSION_FIELD));
      return IndexManifestCodec.fromRecord(reuse);
    } catch (BasaltException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw failure(description, e);
    }
  }

  private void checkVersion(int found) {
    int supported = IndexManifestCodec.VERSION;
    if (found > supported) {
      throw new BasaltException(
          String.format(
              "Failed to read %s: written by a newer version (format %s, max supported %s)",
              description, found, supported));
    } else if (found != supported) {
      throw new BasaltException(
          String.format(
              "Failed to read %s: unsupported format version %s (expected %s)",
              description, found, supported));
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
