package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Upserts into primary-key tables through SQL, read back merged. */
class PrimaryKeyTableIT extends SparkTestBase {

  @Test
  void upsertKeepsTheNewestVersionPerKey() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.users (id BIGINT, name STRING, age INT) TBLPROPERTIES"
            + " ('primary-key' = 'id', 'bucket' = '4')");
    sql("INSERT INTO db.users VALUES (1, 'alice', 30), (2, 'bob', 40), (3, 'carol', 50)");
    sql("INSERT INTO db.users VALUES (2, 'bobby', 41), (4, 'dave', 60)");

    assertThat(rows("SELECT * FROM db.users"))
        .containsExactly("1,alice,30", "2,bobby,41", "3,carol,50", "4,dave,60");
    assertThat(rows("SELECT name FROM db.users WHERE id = 2")).containsExactly("bobby");
  }

  @Test
  void partitionedTableOverwritesOnePartition() {
    sql("CREATE DATABASE IF NOT EXISTS db");
    sql(
        "CREATE TABLE db.orders (dt STRING, id INT, amount DOUBLE) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '2')");
    sql("INSERT INTO db.orders VALUES ('d1', 1, 1.0), ('d1', 2, 2.0), ('d2', 1, 3.0)");
    sql("INSERT INTO db.orders VALUES ('d1', 2, 20.0)");
    sql("INSERT OVERWRITE db.orders PARTITION (dt = 'd2') VALUES (7, 7.0)");

    assertThat(rows("SELECT * FROM db.orders"))
        .containsExactly("d1,1,1.0", "d1,2,20.0", "d2,7,7.0");
    assertThat(rows("SELECT id FROM db.orders WHERE dt = 'd1'")).containsExactly("1", "2");
  }
}
