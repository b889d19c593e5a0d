package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A load into the empty buckets of a deletion-vector table lands on the top level (no rewrite
 * later), a merge-on-read table's on level 0 as in Paimon; Paimon 1.3.1 reads either layout, writes
 * on top of it, and compacts it, and both systems keep reading the same rows.
 */
class TopLevelLoadInteropIT extends SparkTestBase {
  private PaimonInterop paimon;

  @BeforeAll
  void openPaimon() throws Exception {
    paimon = new PaimonInterop(warehouse);
    sql("CREATE DATABASE IF NOT EXISTS tl");
  }

  @AfterAll
  void closePaimon() throws Exception {
    paimon.close();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void paimonReadsWritesAndCompactsAFreshlyLoadedTable(boolean deletionVectors) throws Exception {
    String name = deletionVectors ? "dv" : "mor";
    sql(
        "CREATE TABLE tl.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2', 'deletion-vectors.enabled' = '%s')",
        name, deletionVectors);
    sql("INSERT INTO tl.%s SELECT id, concat('load-', id) FROM range(0, 200) AS t(id)", name);
    // default options: 5 levels above 0, so the top level is 5
    assertThat(rows("SELECT DISTINCT level FROM tl.`%s$files`", name))
        .containsExactly(deletionVectors ? "5" : "0");
    List<String> loaded = rows("SELECT * FROM tl.%s", name);
    assertThat(loaded).hasSize(200);
    assertThat(paimon.rows("tl", name)).isEqualTo(loaded);

    // Paimon writes over the layout, then Basalt upserts again
    paimon.write("tl", name, GenericRow.of(1, BinaryString.fromString("paimon")));
    sql("INSERT INTO tl.%s VALUES (2, 'basalt'), (500, 'new')", name);
    List<String> expected = rows("SELECT * FROM tl.%s", name);
    assertThat(expected).hasSize(201).contains("1,paimon", "2,basalt", "500,new");
    assertThat(paimon.rows("tl", name)).isEqualTo(expected);

    paimon.compact("tl", name);
    assertThat(rows("SELECT * FROM tl.%s", name)).isEqualTo(expected);
    assertThat(paimon.rows("tl", name)).isEqualTo(expected);
  }
}
