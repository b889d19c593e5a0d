package io.basalt.manifest;

import io.basalt.avro.AvroRowReader;
import io.basalt.avro.AvroRowWriter;
import io.basalt.avro.RowWriter;
import io.basalt.format.ManifestFormat;
import io.basalt.fs.FileIO;
import io.basalt.utils.CloseableIterator;
import java.io.IOException;
import java.io.PushbackInputStream;
import java.util.Arrays;
import org.apache.hadoop.fs.Path;

/**
 * Opens metadata files (manifests, manifest lists, index manifests) in either {@link
 * ManifestFormat}: reads by the file's first bytes, writes in the format asked for.
 */
public final class MetadataFiles {
  /** The first bytes of every Parquet file. */
  private static final byte[] PARQUET_MAGIC = {'P', 'A', 'R', '1'};

  private MetadataFiles() {}

  /**
   * Streams the rows of {@code path}, which the returned iterator closes.
   *
   * @param name the file's name in messages
   * @throws java.io.FileNotFoundException when the file does not exist
   * @throws IOException when it cannot be opened
   * @throws io.basalt.BasaltException naming the file when it is corrupt, also from the iterator
   */
  public static <T> CloseableIterator<T> read(
      FileIO fileIO, Path path, MetadataCodec<T> codec, String name) throws IOException {
    String description = codec.what() + " " + name;
    PushbackInputStream in = new PushbackInputStream(fileIO.open(path), PARQUET_MAGIC.length);
    byte[] head;
    try {
      head = in.readNBytes(PARQUET_MAGIC.length);
      in.unread(head);
    } catch (IOException | RuntimeException e) {
      closeAfter(e, in);
      throw e;
    }
    if (Arrays.equals(head, PARQUET_MAGIC)) {
      in.close();
      return ParquetMetadataFiles.read(
          fileIO, path, codec.schema(), codec.version(), codec.decoder(), description);
    }
    return AvroRowReader.open(in, codec.version(), codec.decoder(), description);
  }

  /**
   * Creates {@code path}, which must not exist, and a writer of its rows in {@code format}.
   *
   * @param name the file's name in messages
   * @param compression the codec of Parquet files (Avro files use zstd)
   */
  public static <T> SizedRowWriter<T> create(
      FileIO fileIO,
      Path path,
      ManifestFormat format,
      MetadataCodec<T> codec,
      String name,
      String compression)
      throws IOException {
    if (format == ManifestFormat.PARQUET) {
      return ParquetMetadataFiles.writer(
          fileIO, path, codec.schema(), codec.encoder(), compression);
    }
    CountingOutputStream out = new CountingOutputStream(fileIO.create(path, false));
    RowWriter<T> writer;
    try {
      writer = new AvroRowWriter<>(out, codec.schema(), codec.encoder(), codec.what() + " " + name);
    } catch (RuntimeException e) {
      closeAfter(e, out);
      throw e;
    }
    return new SizedRowWriter<>() {
      @Override
      public void write(T value) {
        writer.write(value);
      }

      @Override
      public long count() {
        return writer.count();
      }

      @Override
      public long size() {
        return out.count();
      }

      @Override
      public void close() {
        writer.close();
      }

      @Override
      public void abort() {
        // Avro leaves its stream open when the last block fails to flush; closing twice is
        // harmless
        try {
          out.close();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException("Failed to close " + name, e);
        }
      }
    };
  }

  private static void closeAfter(Exception failure, AutoCloseable resource) {
    try {
      resource.close();
    } catch (Exception suppressed) {
      failure.addSuppressed(suppressed);
    }
  }
}
