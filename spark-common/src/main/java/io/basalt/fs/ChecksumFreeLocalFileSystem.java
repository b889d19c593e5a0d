package io.basalt.fs;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;

/**
 * Hadoop's local file system without {@code .crc} sidecar files, which Paimon's table layout does
 * not have. It stays a {@link LocalFileSystem}: other file systems get their local buffer directory
 * through {@code FileSystem.getLocal(conf)}, which casts to that class (S3A buffers every upload
 * there), so configuring the raw local file system for {@code file:} would break them.
 */
public final class ChecksumFreeLocalFileSystem extends LocalFileSystem {
  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setWriteChecksum(false);
    setVerifyChecksum(false);
  }
}
