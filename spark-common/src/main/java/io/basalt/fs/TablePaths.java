package io.basalt.fs;

import java.io.Serializable;
import java.util.UUID;
import org.apache.hadoop.fs.Path;

/**
 * Where a table's files live (format-notes.md section 1): schema, snapshot and manifest directories
 * under the table root, data under {@code <partition path>/bucket-<n>/}.
 */
public final class TablePaths implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String root;

  public TablePaths(Path root) {
    this.root = root.toString();
  }

  public Path root() {
    return new Path(root);
  }

  public Path schemaDir() {
    return new Path(root, "schema");
  }

  public Path schemaFile(long id) {
    return new Path(schemaDir(), "schema-" + id);
  }

  public Path snapshotDir() {
    return new Path(root, "snapshot");
  }

  public Path snapshotFile(long id) {
    return new Path(snapshotDir(), "snapshot-" + id);
  }

  public Path tagDir() {
    return new Path(root, "tag");
  }

  /** The file of tag {@code name}: {@code tag/tag-<name>}, holding the tagged snapshot's JSON. */
  public Path tagFile(String name) {
    return new Path(tagDir(), "tag-" + name);
  }

  public Path manifestDir() {
    return new Path(root, "manifest");
  }

  public Path manifestFile(String name) {
    return new Path(manifestDir(), name);
  }

  /**
   * The directory of a bucket.
   *
   * @param partitionPath the relative partition directory ({@code k=v/...}), empty when the table
   *     is unpartitioned
   */
  public Path bucketDir(String partitionPath, int bucket) {
    Path parent = partitionPath.isEmpty() ? root() : new Path(root(), partitionPath);
    return new Path(parent, "bucket-" + bucket);
  }

  /** A fresh name prefix {@code <prefix><uuid>-}: a writer appends a counter and an extension. */
  public static String newFilePrefix(String prefix) {
    return prefix + UUID.randomUUID() + "-";
  }

  @Override
  public String toString() {
    return root;
  }
}
