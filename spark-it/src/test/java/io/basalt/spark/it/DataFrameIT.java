package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The DataFrame API on table paths, per-read/write options, and session-conf option precedence
 * ({@code spark.paimon.<key>}, {@code spark.paimon.<catalog>.<db>.<table>.<key>}).
 */
class DataFrameIT extends SparkTestBase {
  /** Enough incompressible-ish rows that a 1 KB target file size must roll several files. */
  private static final int ROWS = 2000;

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS df");
  }

  @AfterEach
  void unsetSessionOptions() {
    scala.jdk.javaapi.CollectionConverters.asJava(spark.conf().getAll()).keySet().stream()
        .filter(key -> key.startsWith("spark.paimon."))
        .toList()
        .forEach(key -> spark.conf().unset(key));
  }

  private static List<String> render(Dataset<Row> df) {
    List<String> out = new ArrayList<>();
    for (Row row : df.collectAsList()) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        sb.append(i == 0 ? "" : ",").append(row.get(i));
      }
      out.add(sb.toString());
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  private Dataset<Row> generated(int from, int to) {
    return spark.sql(
        String.format(
            "SELECT CAST(id AS INT) AS id, sha2(CAST(id AS STRING), 256) AS v FROM range(%d, %d)",
            from, to));
  }

  private String path(String table) {
    return tablePath("df", table).toUri().toString();
  }

  @Test
  void readByPath() {
    sql(
        "CREATE TABLE df.r (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
    sql("INSERT INTO df.r VALUES (1, 'a'), (2, 'b')");
    sql("INSERT INTO df.r VALUES (2, 'c')");
    Dataset<Row> df = spark.read().format("paimon").load(path("r"));
    assertThat(render(df)).isEqualTo(rows("SELECT * FROM df.r")).containsExactly("1,a", "2,c");
    assertThat(render(df.filter("id = 2").select("v"))).containsExactly("c");
    // a plain local path works as well as a URI
    assertThat(render(spark.read().format("paimon").load(tablePath("df", "r").toString())))
        .containsExactly("1,a", "2,c");
  }

  @Test
  void readOfAMissingPathNamesIt() {
    String missing = path("does_not_exist");
    assertThatThrownBy(() -> spark.read().format("paimon").load(missing).collectAsList())
        .hasMessageContaining("does_not_exist");
  }

  @Test
  void writeAppendAndOverwriteByPath() {
    sql(
        "CREATE TABLE df.w (id INT, v STRING) TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')");
    generated(0, 10).write().format("paimon").mode("append").save(path("w"));
    generated(5, 15).write().format("paimon").mode("append").save(path("w"));
    assertThat(rows("SELECT * FROM df.w")).isEqualTo(render(generated(0, 15)));

    generated(100, 103).write().format("paimon").mode("overwrite").save(path("w"));
    assertThat(rows("SELECT * FROM df.w")).isEqualTo(render(generated(100, 103)));
  }

  private int dataFileCount(String table) {
    return dataFiles(tablePath("df", table)).size();
  }

  @Test
  void writeOptionOverridesTheTableOptionForThatWriteOnly() {
    sql("CREATE TABLE df.opt (id INT, v STRING)");
    generated(0, ROWS).coalesce(1).write().format("paimon").mode("append").save(path("opt"));
    int defaultFiles = dataFileCount("opt");
    assertThat(defaultFiles).isEqualTo(1);

    generated(0, ROWS)
        .coalesce(1)
        .write()
        .format("paimon")
        .option("target-file-size", "1kb")
        .mode("append")
        .save(path("opt"));
    int smallFiles = dataFileCount("opt") - defaultFiles;
    assertThat(smallFiles).isGreaterThan(1);
    assertThat(rows("SELECT count(*), count(DISTINCT id) FROM df.opt"))
        .containsExactly(2 * ROWS + "," + ROWS);
    // the option did not stick to the table
    assertThat(rows("SHOW TBLPROPERTIES df.opt")).noneMatch(p -> p.startsWith("target-file-size"));
  }

  @Test
  void sessionConfOverridesTableOptions() throws Exception {
    // write-only: small-file merging in the writers would change the file counts observed here
    sql(
        "CREATE TABLE df.sess (id INT, v STRING) TBLPROPERTIES ('target-file-size' = '512mb',"
            + " 'write-only' = 'true')");
    sql("CREATE TABLE df.other (id INT, v STRING) TBLPROPERTIES ('target-file-size' = '512mb')");

    spark.conf().set("spark.paimon.paimon.df.other.target-file-size", "1kb");
    generated(0, ROWS).coalesce(1).writeTo("df.sess").append();
    assertThat(dataFileCount("sess")).as("per-table conf of another table").isEqualTo(1);

    spark.conf().set("spark.paimon.paimon.df.sess.target-file-size", "1kb");
    generated(0, ROWS).coalesce(1).writeTo("df.sess").append();
    int afterPerTable = dataFileCount("sess");
    assertThat(afterPerTable - 1).as("per-table conf").isGreaterThan(1);
    spark.conf().unset("spark.paimon.paimon.df.sess.target-file-size");

    spark.conf().set("spark.paimon.target-file-size", "1kb");
    generated(0, ROWS).coalesce(1).writeTo("df.sess").append();
    int afterGlobal = dataFileCount("sess");
    assertThat(afterGlobal - afterPerTable).as("global conf").isGreaterThan(1);

    // the per-table conf wins over the global one
    spark.conf().set("spark.paimon.paimon.df.sess.target-file-size", "512mb");
    generated(0, ROWS).coalesce(1).writeTo("df.sess").append();
    assertThat(dataFileCount("sess") - afterGlobal).as("per-table beats global").isEqualTo(1);

    // and an explicit write option beats both
    generated(0, ROWS)
        .coalesce(1)
        .write()
        .format("paimon")
        .option("target-file-size", "1kb")
        .mode("append")
        .save(path("sess"));
    assertThat(dataFileCount("sess") - afterGlobal - 1).as("write option").isGreaterThan(1);

    assertThat(rows("SELECT count(*) FROM df.sess")).containsExactly(String.valueOf(5 * ROWS));
  }
}
