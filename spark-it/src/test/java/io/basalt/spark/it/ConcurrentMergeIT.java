package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Issue 22 item 6: row-level changes on a primary-key table are deltas, so two of them running at
 * once must both commit; a newer snapshot alone is no conflict.
 */
class ConcurrentMergeIT extends SparkTestBase {
  private static final int ROUNDS = 3;

  private void runConcurrently(String table, String properties) throws Exception {
    sql("CREATE DATABASE IF NOT EXISTS cm");
    sql(
        "CREATE TABLE cm.%s (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' ="
            + " '2'%s)",
        table, properties);
    sql(
        "INSERT INTO cm.%s SELECT CAST(id AS INT), 'old' FROM range(0, 10) UNION ALL"
            + " SELECT CAST(id AS INT), 'old' FROM range(100, 110)",
        table);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    CyclicBarrier barrier = new CyclicBarrier(2);
    List<Future<?>> futures = new ArrayList<>();
    for (int writer = 0; writer < 2; writer++) {
      int from = writer * 100;
      String name = "w" + writer;
      futures.add(
          pool.submit(
              () -> {
                for (int round = 0; round < ROUNDS; round++) {
                  barrier.await();
                  // each writer deletes its lowest key, updates the others and inserts a new one
                  spark
                      .sql(
                          String.format(
                              "MERGE INTO cm.%s t USING (SELECT CAST(id AS INT) AS id FROM"
                                  + " range(%s, %s)) s ON t.id = s.id"
                                  + " WHEN MATCHED AND s.id = %s THEN DELETE"
                                  + " WHEN MATCHED THEN UPDATE SET v = '%s-%s'"
                                  + " WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, '%s-%s')",
                              table,
                              from + round,
                              from + 11 + round,
                              from + round,
                              name,
                              round,
                              name,
                              round))
                      .collectAsList();
                }
                return null;
              }));
    }
    for (Future<?> future : futures) {
      future.get(); // rethrows a failed MERGE
    }
    pool.shutdown();
    List<String> expected = new ArrayList<>();
    for (int writer = 0; writer < 2; writer++) {
      for (int id = writer * 100 + ROUNDS; id < writer * 100 + 10 + ROUNDS; id++) {
        expected.add(id + ",w" + writer + "-" + (ROUNDS - 1));
      }
    }
    expected.sort(null);
    assertThat(rows("SELECT id, v FROM cm.%s", table))
        .as("rows after two writers' merges")
        .containsExactlyElementsOf(expected);
    assertThat(
            sql("SELECT count(*) FROM cm.`%s$snapshots` WHERE commit_kind = 'APPEND'", table)
                .get(0)[0])
        .isEqualTo((long) (1 + 2 * ROUNDS));
  }

  @Test
  void twoConcurrentMergesIntoOnePrimaryKeyTableBothCommit() throws Exception {
    runConcurrently("plain", "");
  }

  // Both commit; the writer whose level-0 promotion loses the race redoes it on the driver against
  // the winner's snapshot, so its rows are visible when its MERGE returns.
  @Test
  void twoConcurrentMergesIntoADeletionVectorTableBothCommit() throws Exception {
    runConcurrently("dv", ", 'deletion-vectors.enabled' = 'true'");
  }
}
