package io.basalt.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Locale;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The create-if-absent primitive of each Hadoop file system: which one a store has ({@link #probe})
 * and the two that are not a plain rename (a local hard link, an S3A conditional PUT).
 */
final class StorePrimitives {
  /**
   * The createFile() option (and path capability) of S3A's conditional create, HADOOP-19256, in
   * hadoop-aws 3.4.2 and later: the PUT carries {@code If-None-Match: *}.
   */
  static final String CONDITIONAL_CREATE = "fs.option.create.conditional.overwrite";

  /** S3A's switch for conditional creates ({@code true} by default where it exists). */
  static final String S3A_CONDITIONAL_ENABLED = "fs.s3a.create.conditional.enabled";

  private StorePrimitives() {}

  /**
   * The primitive {@code fs} offers in {@code dir}. Local disks hard-link; HDFS renames fail when
   * the target exists; S3A is asked whether it can create conditionally (a capability an older
   * hadoop-aws, a disabled switch or another store lacks). Other stores (gs, abfs, oss, s3n, ...)
   * have none Basalt trusts.
   */
  static AtomicCreate probe(FileSystem fs, Path dir) throws IOException {
    String scheme = fs.getUri().getScheme();
    scheme = scheme == null ? "" : scheme.toLowerCase(Locale.ROOT);
    if (scheme.equals("file")) {
      return AtomicCreate.LINK;
    }
    if (scheme.equals("hdfs")) {
      return AtomicCreate.RENAME;
    }
    if (fs.hasPathCapability(dir, CONDITIONAL_CREATE)) {
      return AtomicCreate.CONDITIONAL_PUT;
    }
    return AtomicCreate.NONE;
  }

  /** Hard-links finished file {@code tmp} to {@code target}; false when the target exists. */
  static boolean link(FileSystem fs, Path tmp, Path target) throws IOException {
    try {
      Files.createLink(
          Paths.get(fs.makeQualified(target).toUri()), Paths.get(fs.makeQualified(tmp).toUri()));
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    }
  }

  /**
   * Writes {@code content} to {@code target} in one PUT that the store refuses when the key exists.
   * Returns false when it existed: either S3A's existence check before the upload saw it, or the
   * store answered 412 Precondition Failed to the PUT (at close, when S3A uploads).
   */
  static boolean conditionalPut(FileSystem fs, Path target, String content) throws IOException {
    FSDataOutputStreamBuilder<?, ?> builder = fs.createFile(target).overwrite(false);
    builder.must(CONDITIONAL_CREATE, true);
    try (FSDataOutputStream out = builder.build()) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      if (preconditionFailed(e)) {
        return false;
      }
      throw e;
    }
    return true;
  }

  /**
   * Whether {@code e} is the store's 412 answer. S3A reports it as a RemoteFileChangedException (a
   * hadoop-aws class, not on this module's class path) whose message carries the status; anything
   * else stays an error, and the commit then reads the file back to learn whose it is.
   */
  static boolean preconditionFailed(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = String.valueOf(t.getMessage());
      if (t.getClass().getSimpleName().equals("RemoteFileChangedException")
          || message.contains("PreconditionFailed")
          || message.contains("Status Code: 412")) {
        return true;
      }
    }
    return false;
  }
}
