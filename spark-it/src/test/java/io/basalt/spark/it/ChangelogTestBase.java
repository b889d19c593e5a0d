package io.basalt.spark.it;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The base of the changelog-producer suites: one database per suite and reads of {@code
 * t$audit_log} over a snapshot range in a given {@code incremental-between-scan-mode}.
 */
abstract class ChangelogTestBase extends SparkTestBase {
  private final String database;

  protected ChangelogTestBase(String database) {
    this.database = database;
  }

  @BeforeAll
  void createDatabase() {
    sql("CREATE DATABASE IF NOT EXISTS " + database);
  }

  @AfterEach
  void unsetConfs() {
    spark.conf().unset("spark.paimon.incremental-between");
    spark.conf().unset("spark.paimon.incremental-between-scan-mode");
  }

  /** {@code t$audit_log} over {@code range}, in read order (per key: commit order). */
  protected List<String> auditLog(String table, String range, String mode) {
    spark.conf().set("spark.paimon.incremental-between", range);
    spark.conf().set("spark.paimon.incremental-between-scan-mode", mode);
    try {
      List<String> result = new ArrayList<>();
      for (Row row :
          spark.sql("SELECT * FROM " + database + ".`" + table + "$audit_log`").collectAsList()) {
        result.add(row.mkString(","));
      }
      return result;
    } finally {
      unsetConfs();
    }
  }

  protected static List<String> sorted(List<String> rows) {
    List<String> copy = new ArrayList<>(rows);
    copy.sort(null);
    return copy;
  }
}
