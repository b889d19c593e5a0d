package io.basalt.spark.extensions.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.SparkSqlParser;
import org.apache.spark.sql.execution.command.ResetCommand;
import org.apache.spark.sql.execution.command.SetCommand;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.Tuple2;

class BasaltSqlParserTest {
  private final SparkSqlParser spark = new SparkSqlParser();
  private final BasaltSqlParser parser = new BasaltSqlParser(spark);

  private static SetCommand set(String key, String value) {
    return new SetCommand(Option.apply(Tuple2.apply(key, Option.apply(value))));
  }

  @Test
  void setsAHyphenatedPaimonKeyAsTheDocsWriteIt() throws ParseException {
    assertThat(parser.parsePlan("SET spark.paimon.scan.preserve-data-grouping=true;"))
        .isEqualTo(set("spark.paimon.scan.preserve-data-grouping", "true"));
    assertThat(parser.parsePlan("  set spark.paimon.scan.preserve-data-grouping = false "))
        .isEqualTo(set("spark.paimon.scan.preserve-data-grouping", "false"));
    assertThat(parser.parsePlan("SET spark.paimon.db.t.source.split.target-size=1 mb"))
        .isEqualTo(set("spark.paimon.db.t.source.split.target-size", "1 mb"));
    assertThat(parser.parsePlan("SET spark.paimon.*.db.t.incremental-between = TAG1,TAG3"))
        .isEqualTo(set("spark.paimon.*.db.t.incremental-between", "TAG1,TAG3"));
  }

  @Test
  void showsAndResetsAHyphenatedPaimonKey() throws ParseException {
    assertThat(parser.parsePlan("SET spark.paimon.scan.preserve-data-grouping"))
        .isEqualTo(
            new SetCommand(
                Option.apply(
                    Tuple2.apply("spark.paimon.scan.preserve-data-grouping", Option.empty()))));
    assertThat(parser.parsePlan("RESET spark.paimon.scan.preserve-data-grouping;"))
        .isEqualTo(new ResetCommand(Option.apply("spark.paimon.scan.preserve-data-grouping")));
  }

  @Test
  void leavesEveryOtherStatementToSpark() throws ParseException {
    for (String sql :
        new String[] {
          "SET spark.paimon.plain=1",
          "SET `spark.paimon.scan.preserve-data-grouping`=true",
          "SET spark.sql.shuffle.partitions=3",
          "SET",
          "RESET",
          "RESET spark.sql.shuffle.partitions",
          "SELECT 'SET spark.paimon.a-b=1'"
        }) {
      LogicalPlan expected = spark.parsePlan(sql);
      assertThat(parser.parsePlan(sql)).as(sql).isEqualTo(expected);
    }
  }

  @Test
  void hyphenatedKeysOutsidePaimonStayRejectedBySpark() throws ParseException {
    assertThatThrownBy(() -> parser.parsePlan("SET spark.other.some-key=1"))
        .isInstanceOf(ParseException.class)
        .hasMessageContaining("SET key=value");
  }
}
