package io.basalt.fs;

import java.io.Serializable;
import java.util.UUID;
import org.apache.hadoop.fs.Path;

/**
 * Where a table's files live (format-notes.md section 1): schema, snapshot and manifest directories
 * under the table root, data under {@code <partition path>/bucket-<n>/}. A branch other than {@link
 * #MAIN_BRANCH} keeps its own schema, snapshot and tag directories under {@code
 * branch/branch-<name>/}; manifests, index and data files stay under the table root, shared by all
 * branches.
 */
public final class TablePaths implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The branch whose metadata lives directly under the table root. */
  public static final String MAIN_BRANCH = "main";

  /** The prefix of a branch directory under {@code branch/}. */
  public static final String BRANCH_PREFIX = "branch-";

  private final String root;
  private final String branch;

  /** The paths of the main branch of the table at {@code root}. */
  public TablePaths(Path root) {
    this(root.toString(), MAIN_BRANCH);
  }

  private TablePaths(String root, String branch) {
    this.root = root;
    this.branch = branch;
  }

  /** The same table seen through branch {@code name} ({@link #MAIN_BRANCH} for the root). */
  public TablePaths withBranch(String name) {
    return new TablePaths(root, name);
  }

  /** The branch these paths address. */
  public String branch() {
    return branch;
  }

  public boolean isMainBranch() {
    return MAIN_BRANCH.equals(branch);
  }

  public Path root() {
    return new Path(root);
  }

  /** The directory holding every branch's directory: {@code <root>/branch}. */
  public Path branchesDir() {
    return new Path(root, "branch");
  }

  /** The metadata directory of branch {@code name}: the root for main. */
  public Path branchDir(String name) {
    return MAIN_BRANCH.equals(name) ? root() : new Path(branchesDir(), BRANCH_PREFIX + name);
  }

  /** Where this branch's schema, snapshot and tag directories live. */
  private Path metadataRoot() {
    return branchDir(branch);
  }

  public Path schemaDir() {
    return new Path(metadataRoot(), "schema");
  }

  public Path schemaFile(long id) {
    return new Path(schemaDir(), "schema-" + id);
  }

  public Path snapshotDir() {
    return new Path(metadataRoot(), "snapshot");
  }

  public Path snapshotFile(long id) {
    return new Path(snapshotDir(), "snapshot-" + id);
  }

  /**
   * Paimon's decoupled changelog metadata of this branch: {@code changelog/changelog-<id>} holds
   * the JSON of expired snapshot {@code id} whose changelog outlives it.
   */
  public Path changelogDir() {
    return new Path(metadataRoot(), "changelog");
  }

  public Path changelogFile(long id) {
    return new Path(changelogDir(), "changelog-" + id);
  }

  public Path tagDir() {
    return new Path(metadataRoot(), "tag");
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
    // Paimon names the postponed bucket (-2) by its mode, not its id
    return new Path(parent, bucket == -2 ? "bucket-postpone" : "bucket-" + bucket);
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
