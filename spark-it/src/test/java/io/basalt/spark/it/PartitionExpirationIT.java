package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Partition expiration after commits ({@code partition.expiration-time} and friends) and with
 * {@code CALL sys.expire_partitions}, with the errors of bad options and arguments.
 */
class PartitionExpirationIT extends SparkTestBase {
  private static final String TODAY = LocalDate.now().format(DateTimeFormatter.BASIC_ISO_DATE);

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS pe");
  }

  private List<String> commitKinds(String table) {
    return rows("SELECT snapshot_id || ':' || commit_kind FROM pe.`%s$snapshots`", table);
  }

  @Test
  void commitsDropExpiredPartitions() {
    sql(
        "CREATE TABLE pe.auto (id INT, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('partition.expiration-time' = '7 d', 'partition.expiration-check-interval' = '0 s',"
            + " 'partition.timestamp-formatter' = 'yyyyMMdd')");
    sql("INSERT INTO pe.auto VALUES (1, '20200101'), (2, '20200102'), (3, '%s')", TODAY);
    // the commit appended, then dropped the two old partitions in an OVERWRITE
    assertThat(rows("SELECT * FROM pe.auto")).containsExactly("3," + TODAY);
    assertThat(commitKinds("auto")).containsExactly("1:APPEND", "2:OVERWRITE");
    assertThat(rows("SELECT * FROM pe.auto VERSION AS OF 1")).hasSize(3);
    // a partition whose value is no date never expires
    sql("INSERT INTO pe.auto VALUES (4, 'unknown')");
    assertThat(rows("SELECT * FROM pe.auto")).containsExactly("3," + TODAY, "4,unknown");
  }

  @Test
  void checksAtMostOncePerInterval() {
    sql(
        "CREATE TABLE pe.interval (id INT, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('partition.expiration-time' = '1 d', 'partition.timestamp-formatter' ="
            + " 'yyyyMMdd')");
    sql("INSERT INTO pe.interval VALUES (1, '20200101'), (2, '%s')", TODAY);
    assertThat(rows("SELECT * FROM pe.interval")).containsExactly("2," + TODAY);
    // within the default interval (1 h) the next commit does not look again
    sql("INSERT INTO pe.interval VALUES (3, '20200102')");
    assertThat(rows("SELECT * FROM pe.interval")).containsExactly("2," + TODAY, "3,20200102");
  }

  @Test
  void patternOverSeveralColumnsAndDates() {
    sql(
        "CREATE TABLE pe.ymd (id INT, y STRING, m STRING, d STRING) PARTITIONED BY (y, m, d)"
            + " TBLPROPERTIES ('partition.expiration-time' = '30 d',"
            + " 'partition.expiration-check-interval' = '0 s', 'partition.timestamp-pattern' ="
            + " '$y-$m-$d')");
    LocalDate now = LocalDate.now();
    sql(
        "INSERT INTO pe.ymd VALUES (1, '2019', '12', '31'), (2, '%d', '%d', '%d')",
        now.getYear(), now.getMonthValue(), now.getDayOfMonth());
    assertThat(rows("SELECT id FROM pe.ymd")).containsExactly("2");

    sql(
        "CREATE TABLE pe.dates (id INT, dt DATE) PARTITIONED BY (dt) TBLPROPERTIES"
            + " ('partition.expiration-time' = '2 d', 'partition.expiration-check-interval' ="
            + " '0 s')");
    sql("INSERT INTO pe.dates VALUES (1, DATE '2021-03-04'), (2, current_date())");
    assertThat(rows("SELECT id FROM pe.dates")).containsExactly("2");
  }

  @Test
  void procedureExpiresAndReturnsThePartitions() {
    sql("CREATE TABLE pe.proc (id INT, dt STRING) PARTITIONED BY (dt)");
    sql(
        "INSERT INTO pe.proc VALUES (1, '2020-01-01'), (2, '2020-01-03'), (3, '2020-01-02'),"
            + " (4, '%s')",
        LocalDate.now());
    assertThat(
            rows(
                "CALL paimon.sys.expire_partitions(table => 'pe.proc', expiration_time => '1 d',"
                    + " max_expires => 2)"))
        .containsExactly("dt=2020-01-01", "dt=2020-01-02");
    assertThat(rows("SELECT id FROM pe.proc")).containsExactly("2", "4");
    assertThat(rows("CALL paimon.sys.expire_partitions('pe.proc', '1 d')"))
        .containsExactly("dt=2020-01-03");
    assertThat(rows("CALL paimon.sys.expire_partitions('pe.proc', '1 d')"))
        .containsExactly("No expired partitions.");
    assertThat(rows("SELECT id FROM pe.proc")).containsExactly("4");
  }

  @Test
  void procedureWithFormatterPatternAndUpdateTime() {
    sql("CREATE TABLE pe.fmt (id INT, dt STRING, hh STRING) PARTITIONED BY (dt, hh)");
    sql("INSERT INTO pe.fmt VALUES (1, '20200101', '10'), (2, '%s', '00')", TODAY);
    assertThat(
            rows(
                "CALL paimon.sys.expire_partitions(table => 'pe.fmt', expiration_time => '1 d',"
                    + " timestamp_formatter => 'yyyyMMdd HH', timestamp_pattern => '$dt $hh')"))
        .containsExactly("dt=20200101, hh=10");
    // by update time, every partition was written moments ago
    assertThat(
            rows(
                "CALL paimon.sys.expire_partitions(table => 'pe.fmt', expiration_time => '1 d',"
                    + " expire_strategy => 'update-time')"))
        .containsExactly("No expired partitions.");
    assertThat(
            rows(
                "CALL paimon.sys.expire_partitions(table => 'pe.fmt', expiration_time => '1 ms',"
                    + " expire_strategy => 'update-time')"))
        .containsExactly("dt=" + TODAY + ", hh=00");
    assertThat(rows("SELECT * FROM pe.fmt")).isEmpty();
  }

  @Test
  void badOptionsFailAtCreateAndAlter() {
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE pe.bad (id INT, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
                        + " ('partition.expiration-time' = 'a week')"))
        .hasMessageContaining(
            "Invalid value 'a week' for option 'partition.expiration-time' on table pe.bad:"
                + " expected a duration such as '1 h' or '30 min'");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE pe.bad (id INT, dt STRING) PARTITIONED BY (dt) TBLPROPERTIES"
                        + " ('partition.timestamp-pattern' = '$day')"))
        .hasMessageContaining(
            "Invalid value '$day' for option 'partition.timestamp-pattern' on table pe.bad:"
                + " '$day' is no partition column; the partition columns are dt");
    assertThatThrownBy(
            () ->
                sql(
                    "CREATE TABLE pe.bad (id INT) TBLPROPERTIES ('partition.expiration-time' ="
                        + " '1 d')"))
        .hasMessageContaining(
            "Option 'partition.expiration-time' is set on table pe.bad, which has no partition"
                + " columns");
    assertThat(Files.exists(tablePath("pe", "bad"))).isFalse();
    sql("CREATE TABLE pe.alter (id INT, dt STRING) PARTITIONED BY (dt)");
    assertThatThrownBy(
            () ->
                sql(
                    "ALTER TABLE pe.alter SET TBLPROPERTIES ('partition.timestamp-formatter' ="
                        + " 'yyyy-bb')"))
        .hasMessageContaining(
            "Invalid value 'yyyy-bb' for option 'partition.timestamp-formatter' on table"
                + " pe.alter");
    assertThatThrownBy(
            () ->
                sql(
                    "ALTER TABLE pe.alter SET TBLPROPERTIES ('partition.expiration-strategy' ="
                        + " 'oldest')"))
        .hasMessageContaining(
            "Invalid value 'oldest' for option 'partition.expiration-strategy' on table pe.alter:"
                + " expected one of values-time, update-time");
    assertThat(fileNames(tablePath("pe", "alter").resolve("schema"), "schema-"))
        .containsExactly("schema-0");
  }

  @Test
  void badProcedureArgumentsNameTheValue() {
    sql("CREATE TABLE pe.args (id INT, dt STRING) PARTITIONED BY (dt)");
    sql("INSERT INTO pe.args VALUES (1, '2020-01-01')");
    assertThatThrownBy(() -> sql("CALL paimon.sys.expire_partitions('pe.args', 'soon')"))
        .hasMessageContaining(
            "expire_partitions: invalid value 'soon' for argument 'expiration_time' on table"
                + " pe.args: expected a duration such as '1 h' or '30 min'");
    assertThatThrownBy(
            () ->
                sql(
                    "CALL paimon.sys.expire_partitions(table => 'pe.args', expiration_time =>"
                        + " '1 d', timestamp_formatter => 'yyyy-bb')"))
        .hasMessageContaining(
            "Invalid value 'yyyy-bb' for argument 'timestamp_formatter' on table pe.args");
    assertThatThrownBy(
            () ->
                sql(
                    "CALL paimon.sys.expire_partitions(table => 'pe.args', expiration_time =>"
                        + " '1 d', timestamp_pattern => '$x')"))
        .hasMessageContaining("'$x' is no partition column; the partition columns are dt");
    assertThatThrownBy(
            () ->
                sql(
                    "CALL paimon.sys.expire_partitions(table => 'pe.args', expiration_time =>"
                        + " '1 d', expire_strategy => 'random')"))
        .hasMessageContaining(
            "invalid value 'random' for argument 'expire_strategy' on table pe.args: expected"
                + " one of values-time, update-time");
    assertThatThrownBy(
            () ->
                sql(
                    "CALL paimon.sys.expire_partitions(table => 'pe.args', expiration_time =>"
                        + " '1 d', max_expires => 0)"))
        .hasMessageContaining("Invalid value '0' for argument 'max_expires' on table pe.args");
    sql("CREATE TABLE pe.flat (id INT)");
    assertThatThrownBy(() -> sql("CALL paimon.sys.expire_partitions('pe.flat', '1 d')"))
        .hasMessageContaining("expire_partitions: table pe.flat has no partition columns");
    // nothing was dropped by the failed calls
    assertThat(rows("SELECT * FROM pe.args")).containsExactly("1,2020-01-01");
  }
}
