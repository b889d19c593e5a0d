package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.FileIO;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.FileStoreTable;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Basalt writes the 'input' changelog only: tables that ask for another producer (typically created
 * by Paimon) are never written or expired, so Paimon's streaming readers never miss changes, and
 * new tables cannot ask for one.
 */
class ChangelogProducerGuardIT extends SparkTestBase {

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS cl");
  }

  /** A table as Paimon would create it, with {@code changelog-producer} set. */
  private void createWithProducer(String table, String producer) {
    StructType type =
        new StructType().add("id", DataTypes.IntegerType, false).add("v", DataTypes.StringType);
    FileStoreTable.create(
        FileIO.local(),
        new Path(tablePath("cl", table).toUri()),
        "cl." + table,
        SchemaFactory.create(
            0,
            type,
            List.of(),
            List.of("id"),
            Map.of("bucket", "1", "changelog-producer", producer),
            null));
  }

  @Test
  void writesToATableWithAChangelogProducerAreRefused() {
    createWithProducer("lookup_t", "lookup");
    assertThatThrownBy(() -> sql("INSERT INTO cl.lookup_t VALUES (1, 'a')"))
        .hasMessageContaining("cl.lookup_t")
        .hasMessageContaining("'changelog-producer' = 'lookup'")
        .hasMessageContaining("a changelog Basalt does not produce yet")
        .hasMessageContaining("UNSET TBLPROPERTIES ('changelog-producer')");
    assertThat(fileNames(tablePath("cl", "lookup_t").resolve("snapshot"), "snapshot-")).isEmpty();
    assertThatThrownBy(
            () -> sql("CALL sys.expire_snapshots(table => 'cl.lookup_t', retain_max => 1)"))
        .hasMessageContaining("Cannot expire snapshots of table cl.lookup_t");
    assertThat(rows("SELECT * FROM cl.lookup_t")).isEmpty();

    sql("ALTER TABLE cl.lookup_t UNSET TBLPROPERTIES ('changelog-producer')");
    sql("INSERT INTO cl.lookup_t VALUES (1, 'a')");
    assertThat(rows("SELECT * FROM cl.lookup_t")).containsExactly("1,a");
  }

  @Test
  void noneIsAccepted() {
    createWithProducer("none_t", "NONE");
    sql("INSERT INTO cl.none_t VALUES (1, 'a')");
    assertThat(rows("SELECT * FROM cl.none_t")).containsExactly("1,a");
  }

  @Test
  void newTablesCannotAskForAChangelog() {
    for (String producer : List.of("lookup")) {
      assertThatThrownBy(
              () ->
                  sql(
                      "CREATE TABLE cl.new_t (id INT, v STRING) TBLPROPERTIES ('primary-key' ="
                          + " 'id', 'bucket' = '1', 'changelog-producer' = '%s')",
                      producer))
          .hasMessageContaining("Table cl.new_t cannot have 'changelog-producer' = '" + producer)
          .hasMessageContaining("Basalt does not produce that changelog yet")
          .hasMessageContaining("Fix: set 'changelog-producer' to 'input' or 'none'");
      assertThat(tablePath("cl", "new_t").resolve("schema")).doesNotExist();
    }
    sql(
        "CREATE TABLE cl.alter_t (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id',"
            + " 'bucket' = '1')");
    assertThatThrownBy(
            () -> sql("ALTER TABLE cl.alter_t SET TBLPROPERTIES ('changelog-producer' = 'lookup')"))
        .hasMessageContaining("Table cl.alter_t cannot have 'changelog-producer' = 'lookup'");
    sql("INSERT INTO cl.alter_t VALUES (1, 'a')");
    assertThat(rows("SELECT * FROM cl.alter_t")).containsExactly("1,a");
  }
}
