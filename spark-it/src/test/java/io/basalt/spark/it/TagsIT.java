package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code sys.create_tag}, {@code sys.delete_tag}, {@code sys.rename_tag} and tags surviving
 * expiration.
 */
class TagsIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS tags");
  }

  private List<String> tags(String table) {
    return fileNames(tablePath("tags", table).resolve("tag"), "tag-");
  }

  private void threeCommits(String table) {
    sql("CREATE TABLE tags.%s (id INT, v STRING)", table);
    for (int i = 1; i <= 3; i++) {
      sql("INSERT INTO tags.%s VALUES (%d, 'v%d')", table, i, i);
    }
  }

  @Test
  void createRenameAndDelete() throws IOException {
    threeCommits("life");
    assertThat(rows("CALL paimon.sys.create_tag(table => 'tags.life', tag => 'latest')"))
        .containsExactly("true");
    assertThat(rows("CALL paimon.sys.create_tag('tags.life', 'one', 1)")).containsExactly("true");
    assertThat(tags("life")).containsExactly("tag-latest", "tag-one");
    // the tag file is the snapshot's JSON
    assertThat(Files.readString(tablePath("tags", "life").resolve("tag/tag-one")))
        .isEqualTo(Files.readString(tablePath("tags", "life").resolve("snapshot/snapshot-1")));
    assertThat(rows("SELECT * FROM tags.life VERSION AS OF 'latest'")).hasSize(3);
    assertThat(rows("SELECT * FROM tags.life VERSION AS OF 'one'")).containsExactly("1,v1");

    assertThat(
            rows(
                "CALL paimon.sys.rename_tag(table => 'tags.life', tag => 'one', target_tag =>"
                    + " 'first')"))
        .containsExactly("true");
    assertThat(tags("life")).containsExactly("tag-first", "tag-latest");
    assertThat(rows("SELECT * FROM tags.life VERSION AS OF 'first'")).containsExactly("1,v1");

    assertThat(rows("CALL paimon.sys.delete_tag(table => 'tags.life', tag => 'latest')"))
        .containsExactly("true");
    assertThat(tags("life")).containsExactly("tag-first");
    // without the tag, 'latest' is no version any more
    assertThatThrownBy(() -> sql("SELECT * FROM tags.life VERSION AS OF 'latest'"))
        .hasMessageContaining("Cannot find a time travel version for latest");
  }

  @Test
  void errorsNameTheTagAndWhatExists() {
    threeCommits("errors");
    sql("CALL paimon.sys.create_tag('tags.errors', 'a', 2)");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_tag('tags.errors', 'a')"))
        .hasMessageContaining(
            "Tag 'a' already exists on table tags.errors (it references snapshot 2)");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_tag('tags.errors', 'b', 7)"))
        .hasMessageContaining(
            "Snapshot 7 of table tags.errors does not exist (expired or not yet written);"
                + " existing snapshots are 1 to 3");
    assertThatThrownBy(() -> sql("CALL paimon.sys.delete_tag('tags.errors', 'missing')"))
        .hasMessageContaining(
            "Tag 'missing' does not exist on table tags.errors; existing tags: a");
    assertThatThrownBy(() -> sql("CALL paimon.sys.rename_tag('tags.errors', 'missing', 'c')"))
        .hasMessageContaining("Tag 'missing' does not exist on table tags.errors");
    sql("CALL paimon.sys.create_tag('tags.errors', 'c', 1)");
    assertThatThrownBy(() -> sql("CALL paimon.sys.rename_tag('tags.errors', 'a', 'c')"))
        .hasMessageContaining("Tag 'c' already exists on table tags.errors");
    assertThatThrownBy(() -> sql("SELECT * FROM tags.errors VERSION AS OF 'zzz'"))
        .hasMessageContaining("existing tags: a, c");
    assertThatThrownBy(() -> read("errors", "missing"))
        .hasMessageContaining(
            "Tag 'missing' does not exist on table tags.errors; existing tags: a, c");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_tag('tags.none', 'a')"))
        .hasMessageContaining("tags.none");
    sql("CREATE TABLE tags.empty (id INT)");
    assertThatThrownBy(() -> sql("CALL paimon.sys.create_tag('tags.empty', 'a')"))
        .hasMessageContaining("Cannot tag table tags.empty as 'a': it has no snapshots");
    assertThat(tags("errors")).containsExactly("tag-a", "tag-c");
  }

  private List<String> read(String table, String tag) {
    return spark.read().option("scan.tag-name", tag).table("tags." + table).collectAsList().stream()
        .map(Object::toString)
        .toList();
  }

  @Test
  void expirationKeepsWhatATagNeeds() {
    sql("CREATE TABLE tags.expire (id INT, v STRING)");
    sql("INSERT INTO tags.expire VALUES (1, 'a')");
    sql("INSERT INTO tags.expire VALUES (2, 'b')");
    sql("CALL paimon.sys.create_tag('tags.expire', 'keep', 2)");
    List<String> tagged = rows("SELECT * FROM tags.expire");
    // snapshot 3 drops every file the tag references
    sql("INSERT OVERWRITE tags.expire VALUES (3, 'c')");
    sql("INSERT INTO tags.expire VALUES (4, 'd')");
    sql("INSERT INTO tags.expire VALUES (5, 'e')");
    List<String> latest = rows("SELECT * FROM tags.expire");

    assertThat(rows("CALL paimon.sys.expire_snapshots(table => 'tags.expire', retain_max => 1)"))
        .containsExactly("4");
    assertThat(fileNames(tablePath("tags", "expire").resolve("snapshot"), "snapshot-"))
        .containsExactly("snapshot-5");
    assertThat(rows("SELECT * FROM tags.expire VERSION AS OF 'keep'"))
        .isEqualTo(tagged)
        .containsExactly("1,a", "2,b");
    assertThat(read("expire", "keep")).hasSize(2);
    assertThat(rows("SELECT * FROM tags.expire")).isEqualTo(latest);
    // the tagged snapshot itself expired: only the tag reaches it
    assertThatThrownBy(() -> sql("SELECT * FROM tags.expire VERSION AS OF 2"))
        .hasMessageContaining("Snapshot 2 of table tags.expire does not exist");
    // a second expiration run keeps the tag's files too
    sql("INSERT INTO tags.expire VALUES (6, 'f')");
    sql("CALL paimon.sys.expire_snapshots(table => 'tags.expire', retain_max => 1)");
    assertThat(rows("SELECT * FROM tags.expire VERSION AS OF 'keep'"))
        .containsExactly("1,a", "2,b");
  }

  @Test
  void expirationWithoutTagsStillDeletesFiles() {
    sql("CREATE TABLE tags.untagged (id INT, v STRING)");
    sql("INSERT INTO tags.untagged VALUES (1, 'a')");
    sql("INSERT INTO tags.untagged VALUES (2, 'b')");
    List<String> before = dataFiles(tablePath("tags", "untagged"));
    sql("INSERT OVERWRITE tags.untagged VALUES (3, 'c')");
    sql("CALL paimon.sys.expire_snapshots(table => 'tags.untagged', retain_max => 1)");
    assertThat(dataFiles(tablePath("tags", "untagged"))).doesNotContainAnyElementsOf(before);
  }
}
