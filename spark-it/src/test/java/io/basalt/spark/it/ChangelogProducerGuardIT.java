package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

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
 * Basalt writes the 'input' and 'lookup' changelogs only: tables that ask for another producer
 * (typically created by Paimon) are never written or expired, so Paimon's streaming readers never
 * miss changes, and new tables cannot ask for one.
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
  void tablesPaimonCreatedWithEachProducerAreWrittenWithTheirChangelog() {
    for (String producer : List.of("input", "lookup", "full-compaction")) {
      String table = producer.replace('-', '_') + "_t";
      createWithProducer(table, producer);
      sql("INSERT INTO cl.%s VALUES (1, 'a')", table);
      sql("INSERT INTO cl.%s VALUES (1, 'b')", table);
      assertThat(rows("SELECT * FROM cl.%s", table)).as(producer).containsExactly("1,b");
      // every producer writes changelog files (Basalt refused these tables before)
      assertThat(fileNames(tablePath("cl", table).resolve("bucket-0"), "changelog-"))
          .as(producer)
          .isNotEmpty();
    }
  }

  @Test
  void noneIsAccepted() {
    createWithProducer("none_t", "NONE");
    sql("INSERT INTO cl.none_t VALUES (1, 'a')");
    assertThat(rows("SELECT * FROM cl.none_t")).containsExactly("1,a");
  }
}
