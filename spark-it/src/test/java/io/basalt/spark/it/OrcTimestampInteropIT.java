package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ORC timestamps (TIMESTAMP_NTZ and TIMESTAMP) around the epoch, with negative fractions, far in
 * the past and future: Basalt's files read by Paimon 1.3.1, Paimon's read by Basalt on the row and
 * the columnar path. Instants in the 0.999 s before the epoch have no ORC form (every Apache ORC
 * reader reads them one second late, Paimon's own files included), so Basalt refuses to write them.
 */
class OrcTimestampInteropIT extends SparkTestBase {
  /** Wall clocks (UTC, the JVM and session zone here) that ORC stores. */
  private static final List<String> VALUES =
      List.of(
          "1969-12-31T23:59:59",
          "1969-12-31T23:59:59.000001",
          "1969-12-31T23:59:58.999",
          "1969-12-31T23:59:58.500001",
          "1969-01-01T00:00:00.500",
          "1970-01-01T00:00",
          "1970-01-01T00:00:00.999999",
          "1900-01-01T00:00:00.000001",
          "1582-10-04T23:59:59.999999",
          "0001-01-01T00:00:00.000001",
          "9999-12-31T23:59:59.999999");

  /** Wall clocks in the 0.999 s before the epoch, which ORC reads one second late. */
  private static final List<String> UNSTORABLE =
      List.of("1969-12-31T23:59:59.999999", "1969-12-31T23:59:59.500", "1969-12-31T23:59:59.001");

  private PaimonInterop paimon;

  @Override
  protected void configure(SparkSession.Builder builder) {
    builder.config("spark.sql.session.timeZone", "UTC");
  }

  @BeforeAll
  void openPaimon() {
    paimon = new PaimonInterop(warehouse);
    sql("CREATE DATABASE IF NOT EXISTS ots");
  }

  @AfterAll
  void closePaimon() throws Exception {
    paimon.close();
  }

  @AfterEach
  void resetConf() {
    spark.conf().unset("spark.sql.orc.enableVectorizedReader");
  }

  private static long micros(String wallClock) {
    LocalDateTime value = LocalDateTime.parse(wallClock);
    return value.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + value.getNano() / 1000;
  }

  /**
   * What Paimon 1.3.1 reads back from an ORC file holding {@code micros}: it hands ORC a {@code
   * java.sql.Timestamp} (hybrid Julian/Gregorian calendar) but reads ORC's milliseconds as
   * proleptic Gregorian, so a value before the calendar switch (1582-10-15) comes back days off,
   * from its own files as from Basalt's. Basalt, like Spark's ORC reader, reads the value written.
   */
  private static long paimonReads(long micros) {
    java.sql.Timestamp written =
        java.sql.Timestamp.valueOf(
            LocalDateTime.ofEpochSecond(
                Math.floorDiv(micros, 1_000_000L),
                (int) Math.floorMod(micros, 1_000_000L) * 1000,
                ZoneOffset.UTC));
    long millis = written.getTime();
    return Math.floorDiv(millis, 1000L) * 1_000_000L + written.getNanos() / 1000;
  }

  /** Rows {@code id,ntz,ltz} with both timestamps as Paimon prints them (ISO wall clocks). */
  private static String row(int id, long ntz, long ltz) {
    return id + "," + Timestamp.fromMicros(ntz) + "," + Timestamp.fromMicros(ltz);
  }

  /** Basalt's rows of {@code db.table} on the columnar path and (checked equal) the row path. */
  private List<String> basaltRows(String table) {
    String query =
        "SELECT id, unix_micros(CAST(ntz AS TIMESTAMP)), unix_micros(ltz) FROM ots." + table;
    List<String> columnar = renderMicros(rows(query));
    assertThat(executedScan(query).supportsColumnar()).isTrue();
    spark.conf().set("spark.sql.orc.enableVectorizedReader", "false");
    assertThat(executedScan(query).supportsColumnar()).isFalse();
    assertThat(renderMicros(rows(query))).isEqualTo(columnar);
    spark.conf().unset("spark.sql.orc.enableVectorizedReader");
    return columnar;
  }

  private static List<String> renderMicros(List<String> rows) {
    List<String> rendered = new ArrayList<>();
    for (String row : rows) {
      String[] parts = row.split(",");
      rendered.add(
          row(Integer.parseInt(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])));
    }
    rendered.sort(null);
    return rendered;
  }

  @Test
  void basaltWrittenTimestampsReadByPaimonAndBasalt() throws Exception {
    sql(
        "CREATE TABLE ots.bw (id INT NOT NULL, ntz TIMESTAMP_NTZ, ltz TIMESTAMP)"
            + " TBLPROPERTIES ('file.format' = 'orc')");
    List<String> expected = new ArrayList<>();
    List<String> expectedByPaimon = new ArrayList<>();
    StringBuilder values = new StringBuilder();
    for (int id = 0; id < VALUES.size(); id++) {
      long micros = micros(VALUES.get(id));
      values
          .append(id == 0 ? "" : ", ")
          .append(
              String.format(
                  "(%d, CAST(timestamp_micros(%dL) AS TIMESTAMP_NTZ), timestamp_micros(%dL))",
                  id, micros, micros));
      expected.add(row(id, micros, micros));
      expectedByPaimon.add(row(id, paimonReads(micros), paimonReads(micros)));
    }
    sql("INSERT INTO ots.bw VALUES %s", values);
    expected.sort(null);
    expectedByPaimon.sort(null);
    assertThat(paimon.rows("ots", "bw")).isEqualTo(expectedByPaimon);
    assertThat(basaltRows("bw")).isEqualTo(expected);
  }

  @Test
  void paimonWrittenTimestampsReadByBasaltAsPaimonReadsThem() throws Exception {
    Schema schema =
        Schema.newBuilder()
            .column("id", DataTypes.INT().notNull())
            .column("ntz", DataTypes.TIMESTAMP(6))
            .column("ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
            .option("file.format", "orc")
            .build();
    paimon.catalog().createTable(Identifier.create("ots", "pw"), schema, false);
    List<InternalRow> rows = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    List<String> expectedByPaimon = new ArrayList<>();
    List<String> all = new ArrayList<>(VALUES);
    all.addAll(UNSTORABLE);
    for (int id = 0; id < all.size(); id++) {
      long micros = micros(all.get(id));
      rows.add(GenericRow.of(id, Timestamp.fromMicros(micros), Timestamp.fromMicros(micros)));
      // Paimon's own ORC files carry the format's limit: it reads these one second late too
      long read = id < VALUES.size() ? micros : micros + 1_000_000L;
      expected.add(row(id, read, read));
      expectedByPaimon.add(row(id, paimonReads(read), paimonReads(read)));
    }
    paimon.write("ots", "pw", rows.toArray(new InternalRow[0]));
    expected.sort(null);
    expectedByPaimon.sort(null);
    assertThat(paimon.rows("ots", "pw")).isEqualTo(expectedByPaimon);
    assertThat(basaltRows("pw")).isEqualTo(expected);
  }

  @Test
  void timestampsOrcReadsOneSecondLateAreRefusedAndNothingIsCommitted() {
    sql(
        "CREATE TABLE ots.refused (id INT NOT NULL, ntz TIMESTAMP_NTZ, ltz TIMESTAMP)"
            + " TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '1', 'file.format' = 'orc')");
    sql("INSERT INTO ots.refused VALUES (0, NULL, NULL)");
    for (String value : UNSTORABLE) {
      long micros = micros(value);
      String late = LocalDateTime.parse(value).plusSeconds(1).toString();
      assertThatThrownBy(
              () -> sql("INSERT INTO ots.refused VALUES (1, NULL, timestamp_micros(%dL))", micros))
          .hasMessageContaining("Cannot write to ORC data file")
          .hasMessageContaining(
              "column 'ltz' has TIMESTAMP value "
                  + LocalDateTime.parse(value)
                  + ", which ORC cannot store")
          .hasMessageContaining(
              "(JVM time zone "
                  + TimeZone.getDefault().getID()
                  + ") one second late, here as "
                  + late)
          .hasMessageContaining("Fix: round the value to a whole second");
      assertThatThrownBy(
              () ->
                  sql(
                      "INSERT INTO ots.refused VALUES (2, CAST(timestamp_micros(%dL) AS"
                          + " TIMESTAMP_NTZ), NULL)",
                      micros))
          .hasMessageContaining(
              "column 'ntz' has TIMESTAMP_NTZ value " + LocalDateTime.parse(value));
    }
    assertThat(rows("SELECT id FROM ots.refused")).containsExactly("0");
    assertThat(rows("SELECT count(*) FROM ots.`refused$snapshots`")).containsExactly("1");
  }
}
