package io.basalt.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two Basalt writers racing for one snapshot id on S3A. Bucket {@code lake} has conditional creates
 * (If-None-Match: *); bucket {@code plain} has them switched off, as on a store or an S3A without
 * them. Both buckets skip S3A's existence check before an upload ({@code
 * fs.s3a.create.performance}), and {@link RacingS3AFileSystem} lets both writers pass Basalt's own
 * check for the same snapshot id before either uploads, so only the store's answer to the second
 * PUT decides the race.
 */
class S3aCommitRaceIT extends StoreSparkTestBase {
  private S3Server server;
  private Path lockDir;

  @Override
  protected String startStore() throws Exception {
    server = new S3Server("lake", "plain");
    lockDir = Files.createTempDirectory("basalt-locks-");
    return "s3a://lake/warehouse";
  }

  @Override
  protected Map<String, String> hadoopConf() {
    Map<String, String> conf = new HashMap<>(server.s3aConf());
    conf.put("fs.s3a.impl", RacingS3AFileSystem.class.getName());
    conf.put("fs.s3a.create.performance", "true");
    conf.put("fs.s3a.bucket.plain.create.conditional.enabled", "false");
    return conf;
  }

  @Override
  protected Map<String, String> sessionConf() {
    return Map.of(
        "spark.sql.catalog.plain", "io.basalt.spark.SparkCatalog",
        "spark.sql.catalog.plain.warehouse", "s3a://plain/warehouse");
  }

  @Override
  protected void stopStore() {
    StoresTestSupport.deleteRecursively(lockDir);
    if (server != null) {
      server.close();
    }
  }

  @AfterEach
  void disarm() {
    RacingS3AFileSystem.reset();
  }

  @Test
  void twoWritersRacingForOneSnapshotIdBothCommit() throws Exception {
    sql("CREATE DATABASE IF NOT EXISTS paimon.race");
    sql(
        "CREATE TABLE paimon.race.t (id INT, w STRING) TBLPROPERTIES ('primary-key'='id', 'bucket'='1')");
    sql("INSERT INTO paimon.race.t VALUES (0, 'base')");

    raceTwoInserts("paimon.race.t");

    assertThat(RacingS3AFileSystem.met()).as("both writers created snapshot 2 at once").isTrue();
    assertThat(rows("SELECT * FROM paimon.race.t")).containsExactly("0,base", "1,a", "2,b");
    assertThat(rows("SELECT snapshot_id, commit_kind FROM paimon.race.`t$snapshots`"))
        .containsExactly("1,APPEND", "2,APPEND", "3,APPEND");
  }

  @Test
  void negativeControlWithoutConditionalPutsOneRacingCommitIsLost() throws Exception {
    // what the conditional PUT prevents: with a plain check-then-PUT (single-writer mode, which
    // promises no such race), both writers "win" snapshot 2 and the second PUT replaces the first
    sql("CREATE DATABASE IF NOT EXISTS plain.race");
    sql(
        "CREATE TABLE plain.race.single (id INT, w STRING) TBLPROPERTIES ('primary-key'='id', 'bucket'='1',"
            + " 'commit.single-writer'='true')");
    sql("INSERT INTO plain.race.single VALUES (0, 'base')");

    raceTwoInserts("plain.race.single");

    assertThat(RacingS3AFileSystem.met()).isTrue();
    assertThat(rows("SELECT snapshot_id FROM plain.race.`single$snapshots`"))
        .containsExactly("1", "2");
    List<String> left = rows("SELECT * FROM plain.race.single");
    assertThat(left).hasSize(2).contains("0,base");
  }

  @Test
  void withoutConditionalPutsACommitLockKeepsBothWriters() throws Exception {
    sql("CREATE DATABASE IF NOT EXISTS plain.race");
    sql(
        "CREATE TABLE plain.race.locked (id INT, w STRING) TBLPROPERTIES ('primary-key'='id', 'bucket'='1',"
            + " 'lock.enabled'='true', 'lock.file.dir'='%s')",
        lockDir.toUri());
    sql("INSERT INTO plain.race.locked VALUES (0, 'base')");
    // no barrier here: a writer holding the lock would wait for one that waits for the lock
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> a = pool.submit(() -> sql("INSERT INTO plain.race.locked VALUES (1, 'a')"));
      Future<?> b = pool.submit(() -> sql("INSERT INTO plain.race.locked VALUES (2, 'b')"));
      a.get();
      b.get();
    } finally {
      pool.shutdownNow();
    }
    assertThat(rows("SELECT * FROM plain.race.locked")).containsExactly("0,base", "1,a", "2,b");
    assertThat(rows("SELECT snapshot_id FROM plain.race.`locked$snapshots`"))
        .containsExactly("1", "2", "3");
    try (var files = Files.list(lockDir)) {
      assertThat(files).as("every lock was released").isEmpty();
    }
  }

  @Test
  void withoutConditionalPutsOrALockCommitsAreRefused() {
    sql("CREATE DATABASE IF NOT EXISTS plain.race");
    assertThatThrownBy(() -> sql("CREATE TABLE plain.race.refused (id INT)"))
        .hasMessageContaining("Cannot commit to table race.refused")
        .hasMessageContaining("its store s3a://plain has no atomic create-if-absent")
        .hasMessageContaining("'lock.enabled'='true' with 'lock.file.dir'")
        .hasMessageContaining("'commit.single-writer'='true'");
  }

  private void raceTwoInserts(String table) throws Exception {
    RacingS3AFileSystem.arm(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> a = pool.submit(() -> sql("INSERT INTO %s VALUES (1, 'a')", table));
      Future<?> b = pool.submit(() -> sql("INSERT INTO %s VALUES (2, 'b')", table));
      a.get();
      b.get();
    } finally {
      pool.shutdownNow();
    }
  }
}
