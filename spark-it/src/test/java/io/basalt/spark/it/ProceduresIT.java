package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code CALL paimon.sys.expire_snapshots(...)}: named and positional arguments, file cleanup. */
class ProceduresIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS proc");
  }

  private List<String> snapshots(String table) {
    return fileNames(tablePath("proc", table).resolve("snapshot"), "snapshot-");
  }

  private void fiveCommits(String table) {
    sql(
        "CREATE TABLE proc.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1',"
            // writers must not compact: these tests count snapshots
            + " 'write-only' = 'true')",
        table);
    for (int i = 1; i <= 5; i++) {
      sql("INSERT INTO proc.%s VALUES (%d, 'v%d'), (1, 'latest%d')", table, i, i, i);
    }
  }

  @Test
  void expireWithNamedArguments() {
    fiveCommits("named");
    List<String> before = rows("SELECT * FROM proc.named");
    assertThat(snapshots("named")).hasSize(5);

    assertThat(rows("CALL paimon.sys.expire_snapshots(table => 'proc.named', retain_max => 2)"))
        .containsExactly("3");
    assertThat(snapshots("named")).containsExactlyInAnyOrder("snapshot-4", "snapshot-5");
    assertThat(rows("SELECT * FROM proc.named")).isEqualTo(before);
    // nothing more to expire
    assertThat(rows("CALL paimon.sys.expire_snapshots(table => 'proc.named', retain_max => 2)"))
        .containsExactly("0");
  }

  @Test
  void expireWithPositionalArguments() {
    fiveCommits("positional");
    List<String> before = rows("SELECT * FROM proc.positional");
    assertThat(rows("CALL paimon.sys.expire_snapshots('proc.positional', 3)")).containsExactly("2");
    assertThat(snapshots("positional")).hasSize(3);
    assertThat(rows("SELECT * FROM proc.positional")).isEqualTo(before);
  }

  @Test
  void expiredOverwrittenFilesAreDeleted() {
    fiveCommits("cleanup");
    Path table = tablePath("proc", "cleanup");
    List<String> oldFiles = dataFiles(table);
    assertThat(oldFiles).isNotEmpty();

    sql("INSERT OVERWRITE proc.cleanup VALUES (100, 'fresh')");
    List<String> newFiles = dataFiles(table).stream().filter(f -> !oldFiles.contains(f)).toList();
    assertThat(newFiles).isNotEmpty();

    // snapshot 6 is the overwrite; keeping only it frees every earlier file
    assertThat(rows("CALL paimon.sys.expire_snapshots(table => 'proc.cleanup', retain_max => 1)"))
        .containsExactly("5");
    assertThat(dataFiles(table)).containsExactlyInAnyOrderElementsOf(newFiles);
    assertThat(rows("SELECT * FROM proc.cleanup")).containsExactly("100,fresh");
  }

  @Test
  void filesStillNeededSurviveExpiry() {
    fiveCommits("needed");
    List<String> before = dataFiles(tablePath("proc", "needed"));
    sql("CALL paimon.sys.expire_snapshots(table => 'proc.needed', retain_max => 1)");
    // without compaction every level-0 file is still live in snapshot 5
    assertThat(dataFiles(tablePath("proc", "needed"))).containsExactlyElementsOf(before);
    assertThat(rows("SELECT * FROM proc.needed"))
        .containsExactly("1,latest5", "2,v2", "3,v3", "4,v4", "5,v5");
  }

  @Test
  void badArgumentsAreRejected() {
    fiveCommits("args");
    assertThatThrownBy(
            () -> sql("CALL paimon.sys.expire_snapshots(table => 'proc.args', retain_max => 0)"))
        .hasMessageContaining("retain_max");
    assertThatThrownBy(() -> sql("CALL paimon.sys.expire_snapshots(table => 'proc.missing')"))
        .hasMessageContaining("proc.missing");
    assertThatThrownBy(() -> sql("CALL paimon.sys.no_such_procedure()"))
        .hasMessageContaining("no_such_procedure")
        .hasMessageContaining("sys.expire_snapshots");
    assertThat(snapshots("args")).hasSize(5);
  }
}
