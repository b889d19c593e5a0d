package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code sys.rollback} (snapshot id, tag, a tag whose snapshot expired) and {@code
 * sys.rollback_to_timestamp}: later snapshots and their tags are gone, so are the files only they
 * used, the rows are the target's, and writing continues from there. Every bad input fails with a
 * message naming the value and what exists, and changes nothing.
 */
class RollbackIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS rb");
  }

  private Path table(String name) {
    return tablePath("rb", name);
  }

  private List<String> snapshotFiles(String name) {
    return fileNames(table(name).resolve("snapshot"), "snapshot-");
  }

  private List<String> tagFiles(String name) {
    return fileNames(table(name).resolve("tag"), "tag-");
  }

  /**
   * A primary-key table with {@code commits} commits (writers never compact, so snapshot i is
   * commit i); commit 1 inserts (1, 'v1'), commit i > 1 upserts (i, 'v<i>') and (1, 'one-<i>').
   */
  private void commits(String name, int commits) {
    sql(
        "CREATE TABLE rb.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2', 'write-only' = 'true')",
        name);
    sql("INSERT INTO rb.%s VALUES (1, 'v1')", name);
    for (int i = 2; i <= commits; i++) {
      sql("INSERT INTO rb.%s VALUES (%d, 'v%d'), (1, 'one-%d')", name, i, i, i);
    }
  }

  /** Data and manifest files on disk, relative to the table root. */
  private List<String> dataAndManifests(String name) {
    return filesUnder(table(name)).stream()
        .filter(p -> p.endsWith(".parquet") || p.startsWith("manifest/"))
        .toList();
  }

  @Test
  void toSnapshotIdRemovesLaterSnapshotsTagsAndFiles() throws IOException {
    commits("by_id", 3);
    List<String> filesAtThree = dataAndManifests("by_id");
    List<String> rowsAtThree = rows("SELECT * FROM rb.by_id");
    sql("CALL paimon.sys.create_tag('rb.by_id', 'keep', 2)");
    sql("CALL paimon.sys.create_tag('rb.by_id', 'same', 3)");
    sql("INSERT INTO rb.by_id VALUES (4, 'v4'), (1, 'one-4')");
    sql("INSERT INTO rb.by_id VALUES (5, 'v5')");
    sql("CALL paimon.sys.create_tag('rb.by_id', 'later', 5)");
    assertThat(dataAndManifests("by_id")).hasSizeGreaterThan(filesAtThree.size());

    // Paimon's output: the latest snapshot before and the one the table now ends with
    assertThat(rows("CALL paimon.sys.rollback(table => 'rb.by_id', version => '3')"))
        .containsExactly("5,3");

    assertThat(snapshotFiles("by_id")).containsExactly("snapshot-1", "snapshot-2", "snapshot-3");
    assertThat(Files.readString(table("by_id").resolve("snapshot/LATEST"))).isEqualTo("3");
    assertThat(tagFiles("by_id")).containsExactly("tag-keep", "tag-same");
    assertThat(rows("SELECT * FROM rb.by_id")).isEqualTo(rowsAtThree);
    // exactly what existed at snapshot 3 is left: files of snapshots 4 and 5 are deleted
    assertThat(dataAndManifests("by_id")).isEqualTo(filesAtThree);
    assertThat(rows("SELECT * FROM rb.by_id VERSION AS OF 'keep'"))
        .containsExactly("1,one-2", "2,v2");

    // writing continues from snapshot 3
    sql("INSERT INTO rb.by_id VALUES (6, 'v6')");
    assertThat(snapshotFiles("by_id")).contains("snapshot-4").doesNotContain("snapshot-5");
    assertThat(rows("SELECT * FROM rb.by_id")).containsExactly("1,one-3", "2,v2", "3,v3", "6,v6");
  }

  @Test
  void toTagByVersionAndByName() {
    commits("by_tag", 2);
    sql("CALL paimon.sys.create_tag('rb.by_tag', 'first', 1)");
    List<String> rowsAtOne = rows("SELECT * FROM rb.by_tag VERSION AS OF 1");
    sql("INSERT INTO rb.by_tag VALUES (3, 'v3')");
    // a tag whose name is a number wins over the snapshot id, as for VERSION AS OF
    sql("CALL paimon.sys.create_tag('rb.by_tag', '1', 2)");

    assertThat(rows("CALL paimon.sys.rollback(table => 'rb.by_tag', version => '1')"))
        .containsExactly("3,2");
    assertThat(snapshotFiles("by_tag")).containsExactly("snapshot-1", "snapshot-2");
    assertThat(tagFiles("by_tag")).containsExactly("tag-1", "tag-first");

    assertThat(rows("CALL paimon.sys.rollback(table => 'rb.by_tag', tag => 'first')"))
        .containsExactly("2,1");
    assertThat(snapshotFiles("by_tag")).containsExactly("snapshot-1");
    assertThat(tagFiles("by_tag")).containsExactly("tag-first");
    assertThat(rows("SELECT * FROM rb.by_tag")).isEqualTo(rowsAtOne).containsExactly("1,v1");
  }

  @Test
  void toTagWhoseSnapshotExpiredRestoresIt() throws IOException {
    commits("expired_tag", 2);
    sql("CALL paimon.sys.create_tag('rb.expired_tag', 'old', 1)");
    sql("INSERT OVERWRITE rb.expired_tag VALUES (7, 'v7')");
    sql("INSERT INTO rb.expired_tag VALUES (8, 'v8')");
    sql("CALL paimon.sys.expire_snapshots(table => 'rb.expired_tag', retain_max => 1)");
    assertThat(snapshotFiles("expired_tag")).containsExactly("snapshot-4");

    assertThat(rows("CALL paimon.sys.rollback(table => 'rb.expired_tag', version => 'old')"))
        .containsExactly("4,1");
    assertThat(snapshotFiles("expired_tag")).containsExactly("snapshot-1");
    assertThat(Files.readString(table("expired_tag").resolve("snapshot/EARLIEST"))).isEqualTo("1");
    assertThat(rows("SELECT * FROM rb.expired_tag")).containsExactly("1,v1");
    // the overwrite's files were used by snapshots 3 and 4 only
    assertThat(dataFiles(table("expired_tag"))).hasSize(1);
    sql("INSERT INTO rb.expired_tag VALUES (9, 'v9')");
    assertThat(rows("SELECT * FROM rb.expired_tag")).containsExactly("1,v1", "9,v9");
  }

  @Test
  void toTimestamp() {
    commits("by_time", 3);
    long secondCommit =
        ((Timestamp)
                sql("SELECT commit_time FROM rb.`by_time$snapshots` WHERE snapshot_id = 2")
                    .get(0)[0])
            .getTime();
    List<String> rowsAtTwo = rows("SELECT * FROM rb.by_time VERSION AS OF 2");

    assertThat(
            rows(
                "CALL paimon.sys.rollback_to_timestamp(table => 'rb.by_time', timestamp => %d)",
                secondCommit))
        .containsExactly("3,2");
    assertThat(snapshotFiles("by_time")).containsExactly("snapshot-1", "snapshot-2");
    assertThat(rows("SELECT * FROM rb.by_time")).isEqualTo(rowsAtTwo);
  }

  @Test
  void keepsWhatABranchUses() {
    commits("branched", 3);
    sql("CALL paimon.sys.create_tag('rb.branched', 'late', 3)");
    sql("CALL paimon.sys.create_branch('rb.branched', 'b', 'late')");
    List<String> branchRows = rows("SELECT * FROM rb.`branched$branch_b`");

    sql("CALL paimon.sys.rollback(table => 'rb.branched', version => '1')");
    // the tag on snapshot 3 goes with it, but the branch started from it keeps its files
    assertThat(tagFiles("branched")).isEmpty();
    assertThat(rows("SELECT * FROM rb.branched")).containsExactly("1,v1");
    assertThat(rows("SELECT * FROM rb.`branched$branch_b`"))
        .isEqualTo(branchRows)
        .containsExactly("1,one-3", "2,v2", "3,v3");
  }

  @Test
  void rollsBackABranchOnly() {
    commits("on_branch", 2);
    sql("CALL paimon.sys.create_branch('rb.on_branch', 'b')");
    sql("INSERT INTO rb.`on_branch$branch_b` VALUES (5, 'b1')");
    sql("INSERT INTO rb.`on_branch$branch_b` VALUES (6, 'b2')");
    List<String> mainRows = rows("SELECT * FROM rb.on_branch");

    sql("CALL paimon.sys.rollback(table => 'rb.on_branch$branch_b', snapshot => 1)");
    assertThat(rows("SELECT * FROM rb.`on_branch$branch_b`")).containsExactly("5,b1");
    assertThat(fileNames(table("on_branch").resolve("branch/branch-b/snapshot"), "snapshot-"))
        .containsExactly("snapshot-1");
    assertThat(snapshotFiles("on_branch")).containsExactly("snapshot-1", "snapshot-2");
    assertThat(rows("SELECT * FROM rb.on_branch")).isEqualTo(mainRows);
  }

  @Test
  void badInputNamesTheValueAndChangesNothing() {
    commits("bad", 3);
    sql("CALL paimon.sys.create_tag('rb.bad', 'a', 2)");
    List<String> before = new ArrayList<>(filesUnder(table("bad")));

    assertThatThrownBy(() -> sql("CALL paimon.sys.rollback(table => 'rb.bad', version => '9')"))
        .hasMessageContaining(
            "Snapshot 9 of table rb.bad does not exist (expired or not yet written); existing"
                + " snapshots are 1 to 3");
    assertThatThrownBy(() -> sql("CALL paimon.sys.rollback(table => 'rb.bad', version => 'zz')"))
        .hasMessageContaining(
            "Cannot roll back table rb.bad to version 'zz': it is neither a tag (existing tags:"
                + " a) nor a snapshot id (existing snapshots are 1 to 3)");
    assertThatThrownBy(() -> sql("CALL paimon.sys.rollback(table => 'rb.bad', tag => 'zz')"))
        .hasMessageContaining("Tag 'zz' does not exist on table rb.bad; existing tags: a");
    assertThatThrownBy(() -> sql("CALL paimon.sys.rollback(table => 'rb.bad')"))
        .hasMessageContaining(
            "rollback of rb.bad needs exactly one of 'version', 'tag' or 'snapshot'; got none");
    assertThatThrownBy(
            () -> sql("CALL paimon.sys.rollback(table => 'rb.bad', version => '1', snapshot => 1)"))
        .hasMessageContaining("got version and snapshot");
    assertThatThrownBy(
            () -> sql("CALL paimon.sys.rollback_to_timestamp(table => 'rb.bad', timestamp => 1)"))
        .hasMessageContaining("Table rb.bad has no snapshot committed at or before")
        .hasMessageContaining("the earliest snapshot is 1");
    assertThatThrownBy(() -> sql("CALL paimon.sys.rollback(table => 'rb.none', version => '1')"))
        .hasMessageContaining("rollback: table rb.none does not exist");
    assertThat(filesUnder(table("bad"))).isEqualTo(before);
  }

  @Test
  void expiredSnapshotIsAnError() {
    commits("expired", 4);
    sql("CALL paimon.sys.expire_snapshots(table => 'rb.expired', retain_max => 2)");
    List<String> before = new ArrayList<>(filesUnder(table("expired")));
    assertThatThrownBy(() -> sql("CALL paimon.sys.rollback(table => 'rb.expired', snapshot => 1)"))
        .hasMessageContaining(
            "Snapshot 1 of table rb.expired does not exist (expired or not yet written); existing"
                + " snapshots are 3 to 4");
    assertThat(filesUnder(table("expired"))).isEqualTo(before);
  }
}
