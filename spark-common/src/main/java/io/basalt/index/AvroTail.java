package io.basalt.index;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Watches the bytes an Avro container reader pulls so a truncated file can be told from a complete
 * one: Avro reports a block cut short as a clean end of rows, but a complete container always ends
 * with the 16-byte sync marker its header declares. Records the header (to learn the marker) and
 * the last 16 bytes delivered.
 *
 * <p>Mirrors the package-private {@code io.basalt.manifest.TailCheckingInputStream}; merge the two
 * once the manifest package exposes its Avro helpers.
 */
final class AvroTail extends FilterInputStream {
  private static final int SYNC_SIZE = 16;
  private static final int MAGIC_SIZE = 4;

  private final byte[] tail = new byte[SYNC_SIZE];
  private long delivered;
  private boolean reachedEnd;
  private ByteArrayOutputStream header = new ByteArrayOutputStream();

  AvroTail(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n < 0) {
      reachedEnd = true;
      return n;
    }
    if (header != null) {
      header.write(b, off, n);
    }
    if (n >= SYNC_SIZE) {
      System.arraycopy(b, off + n - SYNC_SIZE, tail, 0, SYNC_SIZE);
    } else {
      System.arraycopy(tail, n, tail, 0, SYNC_SIZE - n);
      System.arraycopy(b, off, tail, SYNC_SIZE - n, n);
    }
    delivered += n;
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    // read instead of skipping so the tail stays accurate
    byte[] scratch = new byte[(int) Math.min(n, 8192)];
    return Math.max(read(scratch, 0, scratch.length), 0);
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  /** The sync marker of the header, which must have been read by now; stops recording it. */
  byte[] headerSync() throws IOException {
    BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(header.toByteArray(), null);
    header = null;
    decoder.skipFixed(MAGIC_SIZE);
    for (long n = decoder.readMapStart(); n != 0; n = decoder.mapNext()) {
      for (long i = 0; i < n; i++) {
        decoder.skipString();
        decoder.skipBytes();
      }
    }
    byte[] sync = new byte[SYNC_SIZE];
    decoder.readFixed(sync);
    return sync;
  }

  long delivered() {
    return delivered;
  }

  /** Whether the whole input was read and it ended with {@code sync}, as a complete file does. */
  boolean endedWith(byte[] sync) {
    return reachedEnd && delivered >= SYNC_SIZE && Arrays.equals(tail, sync);
  }
}
