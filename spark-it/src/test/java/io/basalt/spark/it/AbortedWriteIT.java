package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A write whose job fails leaves no snapshot and no data files behind. */
class AbortedWriteIT extends SparkTestBase {

  @Test
  void failedInsertCommitsNothingAndDeletesItsFiles() throws IOException {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.t (id BIGINT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
    sql("INSERT INTO db.t VALUES (1, 'a'), (2, 'b')");
    List<String> before = dataFiles(tablePath("db", "t"));

    assertThatThrownBy(
            () ->
                sql(
                    "INSERT INTO db.t SELECT id, IF(id = 3999, raise_error('boom'), 'x')"
                        + " FROM range(0, 4000)"))
        .hasMessageContaining("boom");

    assertThat(Files.list(tablePath("db", "t").resolve("snapshot")))
        .extracting(p -> p.getFileName().toString())
        .filteredOn(name -> name.startsWith("snapshot-"))
        .containsExactly("snapshot-1");
    assertThat(dataFiles(tablePath("db", "t"))).containsExactlyInAnyOrderElementsOf(before);
    assertThat(rows("SELECT * FROM db.t")).containsExactly("1,a", "2,b");
  }
}
