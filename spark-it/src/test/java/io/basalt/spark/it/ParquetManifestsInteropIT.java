package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables with {@code manifest.format} = parquet across systems: manifests, manifest lists and index
 * manifests (deletion vectors) that Paimon 1.3.1 writes as Parquet are read by Basalt, and those
 * Basalt writes are read by Paimon, each after the other system wrote and compacted on top.
 */
class ParquetManifestsInteropIT extends SparkTestBase {
  private PaimonInterop paimon;

  @BeforeAll
  void openPaimon() throws Exception {
    paimon = new PaimonInterop(warehouse);
    sql("CREATE DATABASE IF NOT EXISTS pm");
  }

  @AfterAll
  void closePaimon() throws Exception {
    paimon.close();
  }

  private static GenericRow row(int id, String value, String dt) {
    return GenericRow.of(id, BinaryString.fromString(value), BinaryString.fromString(dt));
  }

  /** Every file under {@code manifest/} begins with Parquet's magic bytes. */
  private static void manifestsAreParquet(Path table) throws IOException {
    List<String> manifests =
        filesUnder(table).stream().filter(f -> f.startsWith("manifest/")).toList();
    assertThat(manifests).isNotEmpty().anyMatch(f -> f.contains("index-manifest-"));
    for (String file : manifests) {
      byte[] head = Arrays.copyOf(Files.readAllBytes(table.resolve(file)), 4);
      assertThat(new String(head, java.nio.charset.StandardCharsets.US_ASCII))
          .as(file)
          .isEqualTo("PAR1");
    }
  }

  @Test
  void paimonWrittenParquetManifestsAreReadByBasaltAndBack() throws Exception {
    Schema schema =
        Schema.newBuilder()
            .column("id", DataTypes.INT().notNull())
            .column("v", DataTypes.STRING())
            .column("dt", DataTypes.STRING().notNull())
            .partitionKeys("dt")
            .primaryKey("id", "dt")
            .option("bucket", "2")
            .option("manifest.format", "parquet")
            .option("deletion-vectors.enabled", "true")
            .build();
    paimon.catalog().createTable(Identifier.create("pm", "pw"), schema, false);
    paimon.write("pm", "pw", row(1, "a", "d1"), row(2, "b", "d1"), row(3, "c", "d2"));
    GenericRow gone = row(2, "b", "d1");
    gone.setRowKind(RowKind.DELETE);
    paimon.write("pm", "pw", row(1, "a2", "d1"), gone);
    paimon.compact("pm", "pw");
    manifestsAreParquet(tablePath("pm", "pw"));
    assertThat(rows("SELECT * FROM pm.pw")).isEqualTo(paimon.rows("pm", "pw"));
    assertThat(rows("SELECT * FROM pm.pw")).containsExactly("1,a2,d1", "3,c,d2");

    sql("INSERT INTO pm.pw VALUES (4, 'd', 'd2'), (3, 'c2', 'd2')");
    sql("DELETE FROM pm.pw WHERE id = 1");
    sql("CALL sys.compact(table => 'pm.pw')");
    manifestsAreParquet(tablePath("pm", "pw"));
    assertThat(paimon.rows("pm", "pw")).containsExactly("3,c2,d2", "4,d,d2");
    assertThat(rows("SELECT * FROM pm.pw")).containsExactly("3,c2,d2", "4,d,d2");
  }

  @Test
  void basaltWrittenParquetManifestsAreReadByPaimonAndBack() throws Exception {
    sql(
        "CREATE TABLE pm.bw (id INT NOT NULL, v STRING, dt STRING NOT NULL) PARTITIONED BY (dt)"
            + " TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2', 'manifest.format' ="
            + " 'parquet', 'deletion-vectors.enabled' = 'true')");
    sql("INSERT INTO pm.bw VALUES (1, 'a', 'd1'), (2, 'b', 'd1'), (3, 'c', 'd2')");
    sql("UPDATE pm.bw SET v = 'a2' WHERE id = 1");
    sql("DELETE FROM pm.bw WHERE id = 2");
    manifestsAreParquet(tablePath("pm", "bw"));
    assertThat(paimon.rows("pm", "bw")).containsExactly("1,a2,d1", "3,c,d2");

    paimon.write("pm", "bw", row(5, "e", "d1"));
    paimon.compact("pm", "bw");
    assertThat(rows("SELECT * FROM pm.bw")).containsExactly("1,a2,d1", "3,c,d2", "5,e,d1");
    assertThat(paimon.rows("pm", "bw")).containsExactly("1,a2,d1", "3,c,d2", "5,e,d1");
  }
}
