package io.basalt.index;

import io.basalt.manifest.RowWriter;
import io.basalt.utils.Check;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * Streams index manifest entries into an Avro container file compressed with zstandard (level 1),
 * as Paimon writes manifests.
 */
final class IndexAvroWriter implements RowWriter<IndexManifestEntry> {
  private static final int ZSTD_LEVEL = 1;

  private final DataFileWriter<GenericRecord> writer;
  private final String description;
  private long count;
  private boolean closed;

  /** Starts a file on {@code out}; closes {@code out} if the header cannot be written. */
  IndexAvroWriter(OutputStream out, Schema schema, String description) {
    Check.notNull(out, "out");
    this.description = description;
    this.writer = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema));
    writer.setCodec(CodecFactory.zstandardCodec(ZSTD_LEVEL));
    try {
      writer.create(schema, out);
    } catch (IOException | RuntimeException e) {
      try {
        out.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e instanceof IOException io ? wrap("write", io) : (RuntimeException) e;
    }
  }

  @Override
  public void write(IndexManifestEntry entry) {
    Check.notNull(entry, "entry");
    Check.state(!closed, "Cannot write to %s: the writer is closed", description);
    try {
      writer.append(IndexManifestCodec.toRecord(entry));
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
