package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Branches: {@code sys.create_branch} (from a tag, empty), reading and writing {@code
 * t$branch_<name>} without changing main, time travel and system tables on a branch, {@code
 * sys.fast_forward}, {@code sys.delete_branch}, {@code t$branches}, and the errors.
 */
class BranchesIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS br");
  }

  private Path table(String name) {
    return tablePath("br", name);
  }

  private Path branchDir(String name, String branch) {
    return table(name).resolve("branch").resolve("branch-" + branch);
  }

  /** A primary-key table with three commits (snapshots 1 to 3; writers never compact). */
  private void threeCommits(String name) {
    sql(
        "CREATE TABLE br.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2', 'write-only' = 'true')",
        name);
    sql("INSERT INTO br.%s VALUES (1, 'a'), (2, 'b')", name);
    sql("INSERT INTO br.%s VALUES (2, 'b2')", name);
    sql("INSERT INTO br.%s VALUES (3, 'c')", name);
  }

  @Test
  void fromTagWriteThenFastForward() throws IOException {
    threeCommits("ff");
    sql("CALL paimon.sys.create_tag('br.ff', 'base', 2)");
    List<String> mainRows = rows("SELECT * FROM br.ff");
    List<String> mainSnapshots = fileNames(table("ff").resolve("snapshot"), "snapshot-");

    assertThat(
            rows("CALL paimon.sys.create_branch(table => 'br.ff', branch => 'dev', tag => 'base')"))
        .containsExactly("true");
    assertThat(filesUnder(branchDir("ff", "dev")))
        .contains("schema/schema-0", "snapshot/snapshot-2", "tag/tag-base");
    assertThat(rows("SELECT * FROM br.`ff$branch_dev`")).containsExactly("1,a", "2,b2");

    // writes go to the branch only: its own snapshots, main unchanged
    sql("INSERT INTO br.`ff$branch_dev` VALUES (1, 'dev1'), (10, 'x')");
    sql("INSERT INTO br.`ff$branch_dev` VALUES (11, 'y')");
    assertThat(fileNames(branchDir("ff", "dev").resolve("snapshot"), "snapshot-"))
        .containsExactly("snapshot-2", "snapshot-3", "snapshot-4");
    assertThat(rows("SELECT * FROM br.`ff$branch_dev`"))
        .containsExactly("1,dev1", "10,x", "11,y", "2,b2");
    assertThat(rows("SELECT * FROM br.ff")).isEqualTo(mainRows);
    assertThat(fileNames(table("ff").resolve("snapshot"), "snapshot-")).isEqualTo(mainSnapshots);

    // time travel and system tables of the branch
    assertThat(rows("SELECT * FROM br.`ff$branch_dev` VERSION AS OF 3"))
        .containsExactly("1,dev1", "10,x", "2,b2");
    assertThat(rows("SELECT * FROM br.`ff$branch_dev` VERSION AS OF 'base'"))
        .containsExactly("1,a", "2,b2");
    assertThat(rows("SELECT snapshot_id FROM br.`ff$branch_dev$snapshots`"))
        .containsExactly("2", "3", "4");
    assertThat(rows("SELECT branch_name FROM br.`ff$branches`")).containsExactly("dev");
    // the data file main's snapshot 3 added (row 3) is used by main only
    List<String> mainOnly = new ArrayList<>(dataFiles(table("ff")));

    assertThat(rows("CALL paimon.sys.fast_forward(table => 'br.ff', branch => 'dev')"))
        .containsExactly("true");
    assertThat(rows("SELECT * FROM br.ff")).containsExactly("1,dev1", "10,x", "11,y", "2,b2");
    assertThat(fileNames(table("ff").resolve("snapshot"), "snapshot-"))
        .containsExactly("snapshot-1", "snapshot-2", "snapshot-3", "snapshot-4");
    assertThat(Files.readString(table("ff").resolve("snapshot/snapshot-4")))
        .isEqualTo(Files.readString(branchDir("ff", "dev").resolve("snapshot/snapshot-4")));
    assertThat(rows("SELECT * FROM br.ff VERSION AS OF 'base'")).containsExactly("1,a", "2,b2");
    mainOnly.removeAll(dataFiles(table("ff")));
    assertThat(mainOnly).as("main's replaced snapshot 3 wrote one file, now deleted").hasSize(1);

    // main continues after the branch's history
    sql("INSERT INTO br.ff VALUES (12, 'z')");
    assertThat(rows("SELECT count(*) FROM br.ff")).containsExactly("5");
    assertThat(rows("SELECT * FROM br.`ff$branch_dev`"))
        .containsExactly("1,dev1", "10,x", "11,y", "2,b2");
  }

  @Test
  void emptyBranchHasTheSchemaAndNoSnapshots() {
    threeCommits("empty");
    sql("CALL paimon.sys.create_branch('br.empty', 'e')");
    assertThat(filesUnder(branchDir("empty", "e"))).containsExactly("schema/schema-0");
    assertThat(rows("SELECT * FROM br.`empty$branch_e`")).isEmpty();
    sql("INSERT INTO br.`empty$branch_e` VALUES (5, 'e5')");
    assertThat(rows("SELECT * FROM br.`empty$branch_e`")).containsExactly("5,e5");
    assertThat(rows("SELECT * FROM br.empty")).containsExactly("1,a", "2,b2", "3,c");

    // a branch's schema changes alone
    sql("ALTER TABLE br.`empty$branch_e` SET TBLPROPERTIES ('x' = '1')");
    assertThat(fileNames(branchDir("empty", "e").resolve("schema"), "schema-"))
        .containsExactly("schema-0", "schema-1");
    assertThat(fileNames(table("empty").resolve("schema"), "schema-")).containsExactly("schema-0");
    assertThat(rows("SELECT value FROM br.`empty$branch_e$options` WHERE key = 'x'"))
        .containsExactly("1");
    assertThat(rows("SELECT value FROM br.`empty$options` WHERE key = 'x'")).isEmpty();

    // fast-forwarding to a branch that started empty replaces all of main
    sql("CALL paimon.sys.fast_forward('br.empty', 'e')");
    assertThat(rows("SELECT * FROM br.empty")).containsExactly("5,e5");
    assertThat(fileNames(table("empty").resolve("schema"), "schema-"))
        .containsExactly("schema-0", "schema-1");
  }

  @Test
  void overwriteAndCompactOnABranch() {
    threeCommits("ops");
    sql("CALL paimon.sys.create_tag('br.ops', 't', 3)");
    sql("CALL paimon.sys.create_branch('br.ops', 'b', 't')");
    List<String> mainSnapshots = fileNames(table("ops").resolve("snapshot"), "snapshot-");
    sql("INSERT OVERWRITE br.`ops$branch_b` VALUES (7, 'p'), (8, 'q')");
    sql("INSERT INTO br.`ops$branch_b` VALUES (7, 'p2')");
    assertThat(rows("CALL paimon.sys.compact(table => 'br.ops$branch_b')")).hasSize(1);
    assertThat(rows("SELECT commit_kind FROM br.`ops$branch_b$snapshots` ORDER BY snapshot_id"))
        .containsExactly("APPEND", "APPEND", "COMPACT", "OVERWRITE");
    assertThat(rows("SELECT * FROM br.`ops$branch_b`")).containsExactly("7,p2", "8,q");
    assertThat(rows("SELECT * FROM br.ops")).containsExactly("1,a", "2,b2", "3,c");
    assertThat(fileNames(table("ops").resolve("snapshot"), "snapshot-")).isEqualTo(mainSnapshots);
  }

  @Test
  void deleteBranchRemovesItsMetadataAndFiles() {
    threeCommits("del");
    sql("CALL paimon.sys.create_tag('br.del', 't', 3)");
    sql("CALL paimon.sys.create_branch('br.del', 'one', 't')");
    sql("CALL paimon.sys.create_branch('br.del', 'two')");
    sql("CALL paimon.sys.create_branch('br.del', 'three')");
    List<String> mainFiles = dataFiles(table("del"));
    sql("INSERT INTO br.`del$branch_one` VALUES (20, 'one')");
    sql("INSERT INTO br.`del$branch_two` VALUES (30, 'two')");
    assertThat(dataFiles(table("del"))).hasSize(mainFiles.size() + 2);
    assertThat(rows("SELECT branch_name FROM br.`del$branches`"))
        .containsExactly("one", "three", "two");

    assertThat(rows("CALL paimon.sys.delete_branch(table => 'br.del', branch => 'one,two')"))
        .containsExactly("true");
    assertThat(dirsUnder(table("del").resolve("branch"), "branch-"))
        .containsExactly("branch-three");
    assertThat(rows("SELECT branch_name FROM br.`del$branches`")).containsExactly("three");
    // the files only the deleted branches wrote are gone; main's (shared with 'one') stay
    assertThat(dataFiles(table("del"))).isEqualTo(mainFiles);
    assertThat(rows("SELECT * FROM br.del")).containsExactly("1,a", "2,b2", "3,c");
  }

  @Test
  void expirationOnMainKeepsWhatABranchUses() {
    threeCommits("keep");
    sql("CALL paimon.sys.create_tag('br.keep', 'base', 1)");
    sql("CALL paimon.sys.create_branch('br.keep', 'b', 'base')");
    sql("CALL paimon.sys.delete_tag('br.keep', 'base')");
    sql("INSERT OVERWRITE br.keep VALUES (9, 'z')");
    sql("CALL paimon.sys.expire_snapshots(table => 'br.keep', retain_max => 1)");
    assertThat(fileNames(table("keep").resolve("snapshot"), "snapshot-"))
        .containsExactly("snapshot-4");
    // snapshot 1's files are referenced by the branch only, and survive
    assertThat(rows("SELECT * FROM br.`keep$branch_b`")).containsExactly("1,a", "2,b");
    assertThat(rows("SELECT * FROM br.keep")).containsExactly("9,z");
  }

  @Test
  void errorsNameTheBranchAndWhatExists() {
    threeCommits("errors");
    sql("CALL paimon.sys.create_tag('br.errors', 'a', 1)");
    sql("CALL paimon.sys.create_branch('br.errors', 'b', 'a')");
    sql("CALL paimon.sys.create_branch('br.errors', 'empty')");
    List<String> before = filesUnder(table("errors"));

    assertThatThrownBy(() -> sql("CALL paimon.sys.delete_branch('br.errors', 'main')"))
        .hasMessageContaining(
            "Cannot delete the main branch of table br.errors: it is the table itself")
        .hasMessageContaining("delete one of its branches: b, empty");
    assertThatThrownBy(() -> sql("CALL paimon.sys.delete_branch('br.errors', 'nope')"))
        .hasMessageContaining(
            "Branch 'nope' does not exist on table br.errors; existing branches: b, empty");
    // a bad name in a list deletes nothing
    assertThatThrownBy(() -> sql("CALL paimon.sys.delete_branch('br.errors', 'b,nope')"))
        .hasMessageContaining("Branch 'nope' does not exist on table br.errors");
    assertThatThrownBy(() -> sql("SELECT * FROM br.`errors$branch_nope`"))
        .hasMessageContaining(
            "Branch 'nope' does not exist on table br.errors; existing branches: b, empty");
    assertThatThrownBy(() -> sql("INSERT INTO br.`errors$branch_nope` VALUES (1, 'x')"))
        .hasMessageContaining("Branch 'nope' does not exist on table br.errors");
    assertThatThrownBy(() -> sql("CALL paimon.sys.fast_forward('br.errors', 'nope')"))
        .hasMessageContaining("Branch 'nope' does not exist on table br.errors");
    assertThatThrownBy(() -> sql("CALL paimon.sys.fast_forward('br.errors', 'main')"))
        .hasMessageContaining("Cannot fast-forward table br.errors to branch 'main'");
    assertThatThrownBy(() -> sql("CALL paimon.sys.fast_forward('br.errors', 'empty')"))
        .hasMessageContaining(
            "Cannot fast-forward table br.errors to branch 'empty': the branch has no snapshots");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_branch('br.errors', 'b')"))
        .hasMessageContaining("Branch 'b' already exists on table br.errors");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_branch('br.errors', 'main')"))
        .hasMessageContaining("Branch name 'main' is the default branch of table br.errors");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_branch('br.errors', '123')"))
        .hasMessageContaining("Invalid branch name '123' for table br.errors");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_branch('br.errors', 'a b')"))
        .hasMessageContaining("Invalid branch name 'a b' for table br.errors");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_branch('br.errors', 'c', 'zz')"))
        .hasMessageContaining("Tag 'zz' does not exist on table br.errors; existing tags: a");
    assertThat(filesUnder(table("errors"))).isEqualTo(before);
  }
}
