package io.basalt.avro;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Watches the bytes an Avro container reader pulls, so truncation can be told apart from a clean
 * end. Avro's {@code DataFileStream.hasNext()} answers false when a block is cut short, so a
 * truncated file would silently lose its last rows. A complete container file always ends with the
 * 16-byte sync marker written after its header; this stream records the header bytes (to learn the
 * marker) and the last 16 bytes it delivered.
 */
final class TailCheckingInputStream extends FilterInputStream {
  static final int SYNC_SIZE = 16;
  private static final int MAGIC_SIZE = 4;

  private final byte[] tail = new byte[SYNC_SIZE];
  private long delivered;
  private boolean reachedEnd;
  private ByteArrayOutputStream prefix = new ByteArrayOutputStream();

  TailCheckingInputStream(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b < 0) {
      reachedEnd = true;
    } else {
      record(new byte[] {(byte) b}, 0, 1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n < 0) {
      reachedEnd = true;
    } else {
      record(b, off, n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    // read instead of skipping so the tail stays accurate
    byte[] scratch = new byte[(int) Math.min(n, 8192)];
    int read = read(scratch, 0, scratch.length);
    return Math.max(read, 0);
  }

  @Override
  public boolean markSupported() {
    // a reset would replay bytes the tail has already counted
    return false;
  }

  private void record(byte[] b, int off, int n) {
    if (prefix != null) {
      prefix.write(b, off, n);
    }
    if (n >= SYNC_SIZE) {
      System.arraycopy(b, off + n - SYNC_SIZE, tail, 0, SYNC_SIZE);
    } else if (n > 0) {
      System.arraycopy(tail, n, tail, 0, SYNC_SIZE - n);
      System.arraycopy(b, off, tail, SYNC_SIZE - n, n);
    }
    delivered += n;
  }

  /**
   * The sync marker of the header, which must have been read completely by now. Stops recording the
   * prefix.
   */
  byte[] headerSync() throws IOException {
    byte[] header = prefix.toByteArray();
    prefix = null;
    BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(header, null);
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

  /** The number of bytes read so far. */
  long delivered() {
    return delivered;
  }

  /** Whether the whole input was read and it ended with {@code sync}, as a complete file does. */
  boolean endedWith(byte[] sync) {
    return reachedEnd && delivered >= SYNC_SIZE && Arrays.equals(tail, sync);
  }
}
