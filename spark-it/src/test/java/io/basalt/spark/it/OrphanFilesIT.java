package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code CALL sys.remove_orphan_files}: files no snapshot, tag or branch references and older than
 * the bound are listed (dry run) or deleted; young files and referenced files stay.
 */
class OrphanFilesIT extends SparkTestBase {
  // LocalDateTime.toString drops ":00" seconds, which older_than refuses
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final FileTime TWO_DAYS_AGO =
      FileTime.from(Instant.now().minus(2, ChronoUnit.DAYS));

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS orphans");
  }

  private Path table(String name) {
    return tablePath("orphans", name);
  }

  /** Makes every file under {@code dir} look two days old, as if written long ago. */
  private static void ageAll(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(file, TWO_DAYS_AGO);
      }
    }
  }

  private static Path write(Path file, boolean old) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "left by a crashed writer");
    if (old) {
      Files.setLastModifiedTime(file, TWO_DAYS_AGO);
    }
    return file;
  }

  private Row call(String args) {
    return spark.sql("CALL paimon.sys.remove_orphan_files(" + args + ")").collectAsList().get(0);
  }

  @Test
  void dryRunListsAndRealRunDeletesOnlyOldUnreferencedFiles() throws IOException {
    sql("CREATE TABLE orphans.t (id INT, v STRING) PARTITIONED BY (p STRING)");
    sql("INSERT INTO orphans.t VALUES (1, 'a', 'x'), (2, 'b', 'y')");
    sql("CALL paimon.sys.create_tag(table => 'orphans.t', tag => 'before')");
    List<String> tagged = dataFiles(table("t"));
    sql("INSERT OVERWRITE orphans.t VALUES (3, 'c', 'x')");
    sql("CALL paimon.sys.expire_snapshots(table => 'orphans.t', retain_max => 1)");
    List<String> expected = rows("SELECT * FROM orphans.t");
    ageAll(table("t"));

    Path crashedData = write(table("t").resolve("p=x/bucket-0/data-crashed-0.parquet"), true);
    Path crashedManifest = write(table("t").resolve("manifest/manifest-crashed-0"), true);
    Path crashedSnapshot = write(table("t").resolve("snapshot/.snapshot-9.crashed.tmp"), true);
    Path young = write(table("t").resolve("p=y/bucket-0/data-running-0.parquet"), false);
    List<String> before = filesUnder(table("t"));

    Row dry = call("table => 'orphans.t', dry_run => true");
    // Paimon's output: deletedFileCount, deletedFileTotalLenInBytes
    assertThat(dry.schema().fieldNames())
        .containsExactly("deletedFileCount", "deletedFileTotalLenInBytes");
    assertThat(dry.getLong(0)).isEqualTo(3);
    assertThat(dry.getLong(1)).isEqualTo(3 * Files.size(crashedData));
    assertThat(filesUnder(table("t"))).isEqualTo(before);

    Row real = call("table => 'orphans.t'");
    assertThat(real.getLong(0)).isEqualTo(3);
    assertThat(crashedData).doesNotExist();
    assertThat(crashedManifest).doesNotExist();
    assertThat(crashedSnapshot).doesNotExist();
    assertThat(young).exists();
    // every referenced file stayed, however old: the latest rows and the tag still read
    assertThat(dataFiles(table("t"))).containsAll(tagged);
    assertThat(rows("SELECT * FROM orphans.t")).isEqualTo(expected);
    assertThat(rows("SELECT * FROM orphans.t VERSION AS OF 'before'"))
        .containsExactly("1,a,x", "2,b,y");
    assertThat(call("table => 'orphans.t'").getLong(0)).isZero();
  }

  @Test
  void olderThanBoundsWhatCounts() throws IOException {
    sql("CREATE TABLE orphans.bound (id INT)");
    sql("INSERT INTO orphans.bound VALUES (1)");
    Path crashed = write(table("bound").resolve("bucket-0/data-crashed-0.parquet"), true);
    // the file is two days old: a bound three days back does not reach it
    String threeDaysAgo = SECONDS.format(LocalDateTime.now().minusDays(3));
    assertThat(call("table => 'orphans.bound', older_than => '" + threeDaysAgo + "'").getLong(0))
        .isZero();
    assertThat(crashed).exists();
    String inAMinute = SECONDS.format(LocalDateTime.now().plusMinutes(1));
    assertThat(call("'orphans.bound', '" + inAMinute + "', true").getLong(0)).isEqualTo(1);
    assertThat(crashed).exists();
    assertThat(rows("SELECT * FROM orphans.bound")).containsExactly("1");
  }

  @Test
  void branchFilesAreNeverOrphans() throws IOException {
    sql("CREATE TABLE orphans.branched (id INT)");
    sql("INSERT INTO orphans.branched VALUES (1)");
    List<String> first = dataFiles(table("branched"));
    // a branch made from snapshot 1 shares its files with main
    Path branchSnapshot = table("branched").resolve("branch/branch-b/snapshot/snapshot-1");
    Files.createDirectories(branchSnapshot.getParent());
    Files.copy(table("branched").resolve("snapshot/snapshot-1"), branchSnapshot);
    sql("INSERT OVERWRITE orphans.branched VALUES (2)");
    sql("CALL paimon.sys.expire_snapshots(table => 'orphans.branched', retain_max => 1)");
    // expiration kept what the branch needs, and orphan cleanup does not take it either
    assertThat(dataFiles(table("branched"))).containsAll(first);
    ageAll(table("branched"));
    assertThat(call("table => 'orphans.branched'").getLong(0)).isZero();
    assertThat(dataFiles(table("branched"))).containsAll(first);
  }

  @Test
  void badArgumentsNameTheValue() {
    sql("CREATE TABLE orphans.args (id INT)");
    assertThatThrownBy(() -> call("table => 'orphans.args', older_than => 'yesterday'"))
        .hasMessageContaining(
            "remove_orphan_files on table orphans.args: invalid older_than 'yesterday': expected"
                + " a time like '2024-01-01 00:00:00'");
    assertThatThrownBy(() -> call("table => 'orphans.nope'"))
        .hasMessageContaining("remove_orphan_files: table orphans.nope does not exist");
  }
}
