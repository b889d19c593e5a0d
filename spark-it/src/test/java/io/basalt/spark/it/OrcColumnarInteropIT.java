package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ORC tables Paimon 1.3.1 writes (append and deletion-vector primary-key tables, more rows than an
 * ORC row group) read by Basalt as columnar batches, with the same rows as Basalt's row path and as
 * the values Paimon was given.
 */
class OrcColumnarInteropIT extends SparkTestBase {
  private static final int ROWS = 25_000;
  private static final long MICROS = 1_728_432_000_123_456L;
  private static final String COLUMNS =
      "id, s, n, CAST(d AS STRING), f, b, unix_micros(CAST(ts AS TIMESTAMP)), unix_micros(ltz),"
          + " unix_date(dt), hex(bin), arr, m, r";

  private PaimonInterop paimon;

  @BeforeAll
  void openPaimon() {
    paimon = new PaimonInterop(warehouse);
    sql("CREATE DATABASE IF NOT EXISTS oci");
  }

  @AfterAll
  void closePaimon() throws Exception {
    paimon.close();
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset("spark.sql.orc.enableVectorizedReader");
  }

  private static Schema.Builder schema() {
    return Schema.newBuilder()
        .column("id", DataTypes.INT().notNull())
        .column("s", DataTypes.STRING())
        .column("n", DataTypes.BIGINT())
        .column("d", DataTypes.DECIMAL(20, 4))
        .column("f", DataTypes.DOUBLE())
        .column("b", DataTypes.BOOLEAN())
        .column("ts", DataTypes.TIMESTAMP(6))
        .column("ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
        .column("dt", DataTypes.DATE())
        .column("bin", DataTypes.BYTES())
        .column("arr", DataTypes.ARRAY(DataTypes.INT()))
        .column("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
        .column(
            "r",
            DataTypes.ROW(
                DataTypes.FIELD(20, "x", DataTypes.INT()),
                DataTypes.FIELD(21, "y", DataTypes.STRING())))
        .option("file.format", "orc");
  }

  private static InternalRow row(int id, String value) {
    boolean nulls = id % 10 == 3;
    return GenericRow.of(
        id,
        nulls ? null : BinaryString.fromString(value + id),
        nulls ? null : id * 1000L,
        nulls ? null : Decimal.fromBigDecimal(new BigDecimal(id + ".0125"), 20, 4),
        nulls ? null : id * 0.5,
        nulls ? null : id % 2 == 0,
        nulls ? null : Timestamp.fromMicros(MICROS + id),
        nulls ? null : Timestamp.fromMicros(-MICROS + id),
        nulls ? null : 19_000 + id,
        nulls ? null : new byte[] {(byte) id, 0, -1},
        nulls ? null : new GenericArray(new Object[] {id, null}),
        nulls ? null : new GenericMap(Map.of(BinaryString.fromString("k" + id), id)),
        nulls ? null : GenericRow.of(id, BinaryString.fromString("y" + id)));
  }

  private static String expected(int id, String value) {
    if (id % 10 == 3) {
      return id + ",null,null,null,null,null,null,null,null,null,null,null,null";
    }
    return String.format(
        "%d,%s%d,%d,%d.0125,%s,%s,%d,%d,%d,%02X00FF,ArraySeq(%d, null),Map(k%d -> %d),[%d,y%d]",
        id,
        value,
        id,
        id * 1000L,
        id,
        id * 0.5,
        id % 2 == 0,
        MICROS + id,
        -MICROS + id,
        19_000 + id,
        id & 0xFF,
        id,
        id,
        id,
        id,
        id);
  }

  /** The rows of {@code query}, asserting the scan is columnar and the row path agrees. */
  private List<String> columnarRows(String query) {
    BatchScanExec scan = executedScan(query);
    assertThat(scan.supportsColumnar()).as(query).isTrue();
    assertThat(metric(scan, "columnarSplits")).isPositive();
    List<String> columnar = rows(query);
    spark.conf().set("spark.sql.orc.enableVectorizedReader", "false");
    assertThat(executedScan(query).supportsColumnar()).isFalse();
    assertThat(rows(query)).isEqualTo(columnar);
    spark.conf().unset("spark.sql.orc.enableVectorizedReader");
    return columnar;
  }

  @Test
  void paimonWrittenAppendTableReadsColumnar() throws Exception {
    paimon.catalog().createTable(Identifier.create("oci", "app"), schema().build(), false);
    InternalRow[] rows = new InternalRow[ROWS];
    List<String> expected = new ArrayList<>();
    for (int id = 0; id < ROWS; id++) {
      rows[id] = row(id, "a");
      expected.add(expected(id, "a"));
    }
    paimon.write("oci", "app", rows);
    expected.sort(null);
    assertThat(columnarRows("SELECT " + COLUMNS + " FROM oci.app")).isEqualTo(expected);
    String window = "SELECT " + COLUMNS + " FROM oci.app WHERE id BETWEEN 21000 AND 21002";
    assertThat(columnarRows(window))
        .containsExactly(expected(21000, "a"), expected(21001, "a"), expected(21002, "a"));
    assertThat(metric(executedScan(window), "orcRowGroupsSkipped")).isPositive();
  }

  @Test
  void paimonWrittenDeletionVectorTableReadsColumnar() throws Exception {
    Schema schema =
        schema()
            .primaryKey("id")
            .option("bucket", "2")
            .option("deletion-vectors.enabled", "true")
            .build();
    paimon.catalog().createTable(Identifier.create("oci", "dv"), schema, false);
    InternalRow[] first = new InternalRow[ROWS];
    for (int id = 0; id < ROWS; id++) {
      first[id] = row(id, "old");
    }
    paimon.write("oci", "dv", first);
    List<InternalRow> second = new ArrayList<>();
    for (int id = 0; id < ROWS; id += 9) {
      second.add(row(id, "new"));
    }
    paimon.write("oci", "dv", second.toArray(new InternalRow[0]));
    List<String> expected = new ArrayList<>();
    for (int id = 0; id < ROWS; id++) {
      expected.add(expected(id, id % 9 == 0 ? "new" : "old"));
    }
    expected.sort(null);
    assertThat(columnarRows("SELECT " + COLUMNS + " FROM oci.dv")).isEqualTo(expected);
    BatchScanExec scan = executedScan("SELECT id FROM oci.dv");
    assertThat(metric(scan, "deletedRowsSkipped")).isPositive();
    assertThat(metric(scan, "mergedSplits")).isZero();
  }
}
