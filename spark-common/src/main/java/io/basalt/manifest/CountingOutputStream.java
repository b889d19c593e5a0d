package io.basalt.manifest;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Counts the bytes written through it. A file system cannot say how large a file still being
 * written is (S3A has no object before close, HDFS reports a lagging length), so writers that roll
 * by size count on their own stream.
 */
final class CountingOutputStream extends FilterOutputStream {
  private long count;

  CountingOutputStream(OutputStream out) {
    super(out);
  }

  /** Bytes written so far; after {@link #close()}, the size of the file. */
  long count() {
    return count;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    count++;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    count += len;
  }
}
