package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Procedure arguments as Paimon takes them: unqualified tables in the current database, tag lists
 * in {@code delete_tag}, {@code compact(options, partition_idle_time)}, {@code rename_branch},
 * {@code reset_consumer} / {@code clear_consumers}, and Paimon's procedures Basalt refuses.
 */
class ProcedureArgumentsIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS pa");
  }

  @AfterEach
  void backToDefault() {
    sql("USE paimon.default");
  }

  private long snapshots(String table) {
    return (long) sql("SELECT count(*) FROM pa.`%s$snapshots`", table).get(0)[0];
  }

  private void twoCommits(String table) {
    sql(
        "CREATE TABLE pa.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1', 'write-only' = 'true')",
        table);
    sql("INSERT INTO pa.%s VALUES (1, 'a'), (2, 'b')", table);
    sql("INSERT INTO pa.%s VALUES (1, 'a2'), (3, 'c')", table);
  }

  @Test
  void unqualifiedTableResolvesInTheCurrentDatabase() {
    twoCommits("current");
    sql("USE pa");
    sql("CALL sys.compact(table => 'current')");
    assertThat(rows("SELECT commit_kind FROM pa.`current$snapshots` WHERE snapshot_id = 3"))
        .containsExactly("COMPACT");
    sql("CALL sys.create_tag(table => 'current', tag => 'after')");
    assertThat(rows("SELECT tag_name FROM pa.`current$tags`")).containsExactly("after");

    sql("USE paimon.default");
    assertThatThrownBy(() -> sql("CALL sys.compact(table => 'current')"))
        .hasMessageContaining(
            "compact: table current (current database default) does not exist. Fix: pass an"
                + " existing table as 'db.table', or 'table' for the current database.");
  }

  @Test
  void deleteTagTakesACommaSeparatedList() {
    twoCommits("tags");
    for (String tag : new String[] {"a", "b", "c"}) {
      sql("CALL sys.create_tag(table => 'pa.tags', tag => '%s')", tag);
    }
    sql("CALL sys.delete_tag(table => 'pa.tags', tag => 'a, b')");
    assertThat(rows("SELECT tag_name FROM pa.`tags$tags`")).containsExactly("c");
    // one missing name deletes none of them
    assertThatThrownBy(() -> sql("CALL sys.delete_tag(table => 'pa.tags', tag => 'c,nope')"))
        .hasMessageContaining("Tag 'nope' does not exist on table pa.tags; existing tags: c");
    assertThat(rows("SELECT tag_name FROM pa.`tags$tags`")).containsExactly("c");
  }

  @Test
  void renameBranch() {
    twoCommits("br");
    sql("CALL sys.create_tag(table => 'pa.br', tag => 't1')");
    sql("CALL sys.create_branch(table => 'pa.br', branch => 'dev', tag => 't1')");
    sql("CALL sys.create_branch(table => 'pa.br', branch => 'other')");
    sql("INSERT INTO pa.`br$branch_dev` VALUES (9, 'dev')");
    sql("CALL sys.rename_branch(table => 'pa.br', from_branch => 'dev', to_branch => 'staging')");
    assertThat(rows("SELECT branch_name FROM pa.`br$branches`"))
        .containsExactly("other", "staging");
    assertThat(rows("SELECT * FROM pa.`br$branch_staging`"))
        .containsExactly("1,a2", "2,b", "3,c", "9,dev");
    assertThat(rows("SELECT * FROM pa.br")).containsExactly("1,a2", "2,b", "3,c");

    assertThatThrownBy(
            () ->
                sql(
                    "CALL sys.rename_branch(table => 'pa.br', from_branch => 'main', to_branch"
                        + " => 'x')"))
        .hasMessageContaining("Cannot rename the main branch of table pa.br");
    assertThatThrownBy(
            () ->
                sql(
                    "CALL sys.rename_branch(table => 'pa.br', from_branch => 'dev', to_branch =>"
                        + " 'x')"))
        .hasMessageContaining(
            "Branch 'dev' does not exist on table pa.br; existing branches: other, staging");
    assertThatThrownBy(
            () ->
                sql(
                    "CALL sys.rename_branch(table => 'pa.br', from_branch => 'staging', to_branch"
                        + " => 'other')"))
        .hasMessageContaining("Branch 'other' already exists on table pa.br");
  }

  @Test
  void compactWithOptions() {
    sql("CREATE TABLE pa.opts (id INT, v STRING) TBLPROPERTIES ('write-only' = 'true')");
    for (int i = 0; i < 3; i++) {
      sql(
          "INSERT INTO pa.opts SELECT id, repeat(uuid(), 20) FROM range(%d, %d) AS r(id)",
          i * 2000, (i + 1) * 2000);
    }
    // files of at most 64 kB for this compaction only: several files where the default makes one
    sql("CALL sys.compact(table => 'pa.opts', options => 'target-file-size=64 kb')");
    assertThat(rows("SELECT commit_kind FROM pa.`opts$snapshots` WHERE snapshot_id = 4"))
        .containsExactly("COMPACT");
    assertThat((long) sql("SELECT count(*) FROM pa.`opts$files`").get(0)[0]).isGreaterThan(3);
    assertThat(rows("SELECT count(*) FROM pa.opts")).containsExactly("6000");
    assertThat(rows("SELECT value FROM pa.`opts$options` WHERE key = 'target-file-size'"))
        .isEmpty();

    assertThatThrownBy(() -> sql("CALL sys.compact(table => 'pa.opts', options => 'oops')"))
        .hasMessageContaining(
            "compact on pa.opts: invalid options 'oops': 'oops' is not a key=value pair.");
    assertThatThrownBy(
            () -> sql("CALL sys.compact(table => 'pa.opts', options => 'target_file_size=1 mb')"))
        .hasMessageContaining("target_file_size")
        .hasMessageContaining("target-file-size");
  }

  @Test
  void compactOnlyIdlePartitions() {
    sql(
        "CREATE TABLE pa.idle (id INT, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('primary-key' = 'id,dt', 'bucket' = '1', 'write-only' = 'true')");
    sql("INSERT INTO pa.idle VALUES (1, 'p1'), (2, 'p2')");
    sql("INSERT INTO pa.idle VALUES (3, 'p1'), (4, 'p2')");
    long before = snapshots("idle");
    // every file was just written: no partition has been idle for a day
    sql("CALL sys.compact(table => 'pa.idle', partition_idle_time => '1 d')");
    assertThat(snapshots("idle")).isEqualTo(before);
    sql(
        "CALL sys.compact(table => 'pa.idle', partition_idle_time => '0 s', partitions => 'dt=p1')");
    assertThat(snapshots("idle")).isEqualTo(before + 1);
    assertThat(rows("SELECT partition, level > 0 FROM pa.`idle$files`"))
        .containsExactly("[p1],true", "[p2],false", "[p2],false");

    assertThatThrownBy(
            () -> sql("CALL sys.compact(table => 'pa.idle', partition_idle_time => 'soon')"))
        .hasMessageContaining("compact on pa.idle: invalid partition_idle_time 'soon'");
    assertThatThrownBy(
            () ->
                sql(
                    "CALL sys.compact(table => 'pa.idle', partition_idle_time => '1 d',"
                        + " order_strategy => 'zorder', order_by => 'id')"))
        .hasMessageContaining(
            "compact on pa.idle: partition_idle_time cannot be combined with order_strategy"
                + " 'zorder'");
  }

  @Test
  void resetAndClearConsumers() throws Exception {
    twoCommits("cons");
    Path dir = tablePath("pa", "cons").resolve("consumer");
    sql("CALL sys.reset_consumer(table => 'pa.cons', consumerId => 'job-a', nextSnapshotId => 1)");
    sql("CALL sys.reset_consumer('pa.cons', 'job-b', 2)");
    sql("CALL sys.reset_consumer('pa.cons', 'other', 2)");
    assertThat(Files.readString(dir.resolve("consumer-job-a"))).contains("\"nextSnapshot\":1");
    assertThat(fileNames(dir, "consumer-"))
        .containsExactly("consumer-job-a", "consumer-job-b", "consumer-other");
    assertThatThrownBy(() -> sql("CALL sys.reset_consumer('pa.cons', 'job-a', 99)"))
        .hasMessageContaining("reset_consumer: snapshot 99 of table pa.cons does not exist");

    sql("CALL sys.reset_consumer(table => 'pa.cons', consumerId => 'other')");
    assertThat(fileNames(dir, "consumer-")).containsExactly("consumer-job-a", "consumer-job-b");
    sql("CALL sys.reset_consumer('pa.cons', 'job-c', 2)");
    sql(
        "CALL sys.clear_consumers(table => 'pa.cons', includingConsumers => 'job-.*',"
            + " excludingConsumers => 'job-b')");
    assertThat(fileNames(dir, "consumer-")).containsExactly("consumer-job-b");
    sql("CALL sys.clear_consumers(table => 'pa.cons')");
    assertThat(fileNames(dir, "consumer-")).isEmpty();
    assertThatThrownBy(
            () -> sql("CALL sys.clear_consumers(table => 'pa.cons', includingConsumers => '(')"))
        .hasMessageContaining(
            "clear_consumers on pa.cons: invalid regular expression '(' for argument"
                + " 'includingConsumers'");
  }

  @Test
  void paimonProceduresBasaltRefusesSayWhatToUseInstead() {
    assertThatThrownBy(() -> sql("CALL sys.materialize_deletion_vectors(table => 'pa.x')"))
        .hasMessageContaining(
            "sys.materialize_deletion_vectors is not supported by Basalt: it applies only to"
                + " data-evolution tables with deletion vectors")
        .hasMessageContaining("Use instead: sys.compact(table => ..., compact_strategy => 'full')");
    assertThatThrownBy(() -> sql("CALL sys.purge_files('pa.x')"))
        .hasMessageContaining("sys.purge_files is not supported by Basalt")
        .hasMessageContaining("Use instead: TRUNCATE TABLE t");
    assertThatThrownBy(() -> sql("CALL sys.no_such_procedure('pa.x')"))
        .hasMessageContaining("Procedure sys.no_such_procedure does not exist");
  }
}
