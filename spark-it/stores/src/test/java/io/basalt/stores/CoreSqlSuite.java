package io.basalt.stores;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The core SQL life cycle of a table, run on each store by a subclass: create, insert, upsert,
 * compaction, time travel and snapshot expiration, checking results and snapshots.
 */
abstract class CoreSqlSuite extends StoreSparkTestBase {

  @Test
  void primaryKeyTableLifeCycle() {
    sql("CREATE DATABASE IF NOT EXISTS core");
    sql("CREATE TABLE core.pk (id INT, v STRING) TBLPROPERTIES ('primary-key'='id', 'bucket'='2')");
    sql("INSERT INTO core.pk VALUES (1, 'a'), (2, 'b')");
    sql("INSERT INTO core.pk VALUES (2, 'B'), (3, 'c')");
    assertThat(rows("SELECT * FROM core.pk")).containsExactly("1,a", "2,B", "3,c");

    // time travel to the first snapshot sees the row before its upsert
    assertThat(rows("SELECT * FROM core.pk VERSION AS OF 1")).containsExactly("1,a", "2,b");

    sql("CALL sys.compact(table => 'core.pk')");
    assertThat(rows("SELECT * FROM core.pk")).containsExactly("1,a", "2,B", "3,c");
    assertThat(commitKinds("pk")).containsExactly("APPEND", "APPEND", "COMPACT");

    sql("DELETE FROM core.pk WHERE id = 1");
    assertThat(rows("SELECT * FROM core.pk")).containsExactly("2,B", "3,c");

    // expiration keeps the latest snapshot only; the data it needs stays readable
    sql("CALL sys.expire_snapshots(table => 'core.pk', retain_max => 1)");
    assertThat(rows("SELECT snapshot_id FROM core.`pk$snapshots`")).containsExactly("4");
    assertThat(rows("SELECT * FROM core.pk")).containsExactly("2,B", "3,c");
    sql("INSERT INTO core.pk VALUES (4, 'd')");
    assertThat(rows("SELECT * FROM core.pk")).containsExactly("2,B", "3,c", "4,d");
  }

  @Test
  void partitionedAppendTableWithOverwrite() {
    sql("CREATE DATABASE IF NOT EXISTS core");
    sql("CREATE TABLE core.log (dt STRING, n INT) PARTITIONED BY (dt)");
    sql("INSERT INTO core.log VALUES ('d1', 1), ('d2', 2)");
    sql("INSERT INTO core.log VALUES ('d1', 3)");
    sql("INSERT OVERWRITE core.log PARTITION (dt = 'd2') VALUES (20)");
    assertThat(rows("SELECT * FROM core.log")).containsExactly("d1,1", "d1,3", "d2,20");
    assertThat(rows("SELECT * FROM core.log VERSION AS OF 2"))
        .containsExactly("d1,1", "d1,3", "d2,2");
  }

  private List<String> commitKinds(String table) {
    return sql("SELECT commit_kind FROM core.`%s$snapshots` ORDER BY snapshot_id", table).stream()
        .map(r -> String.valueOf(r[0]))
        .toList();
  }
}
