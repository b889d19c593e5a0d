package io.basalt.spark.shell;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlSplitterTest {

  @Test
  void splitsOnSemicolonsAndTrims() {
    assertThat(SqlSplitter.split("SELECT 1;\n  SELECT 2 ;SELECT 3"))
        .containsExactly("SELECT 1", "SELECT 2", "SELECT 3");
  }

  @Test
  void skipsBlankStatements() {
    assertThat(SqlSplitter.split(";; SELECT 1;;\n ;  \n")).containsExactly("SELECT 1");
    assertThat(SqlSplitter.split("")).isEmpty();
    assertThat(SqlSplitter.split("  \n\t ")).isEmpty();
  }

  @Test
  void keepsSemicolonsInsideSingleQuotes() {
    assertThat(SqlSplitter.split("SELECT 'a;b'; SELECT 2"))
        .containsExactly("SELECT 'a;b'", "SELECT 2");
  }

  @Test
  void keepsSemicolonsInsideDoubleQuotes() {
    assertThat(SqlSplitter.split("SELECT \"a;b\"; SELECT 2"))
        .containsExactly("SELECT \"a;b\"", "SELECT 2");
  }

  @Test
  void keepsSemicolonsInsideBackQuotes() {
    assertThat(SqlSplitter.split("SELECT 1 AS `a;b`; SELECT 2"))
        .containsExactly("SELECT 1 AS `a;b`", "SELECT 2");
  }

  @Test
  void backslashEscapedQuoteDoesNotCloseLiteral() {
    String first = "SELECT 'it\\'s; fine', \"say \\\"hi;\\\"\"";
    assertThat(SqlSplitter.split(first + "; SELECT 2")).containsExactly(first, "SELECT 2");
  }

  @Test
  void escapedBackslashBeforeQuoteClosesLiteral() {
    String first = "SELECT 'a\\\\'";
    assertThat(SqlSplitter.split(first + "; SELECT 2")).containsExactly(first, "SELECT 2");
  }

  @Test
  void doubledQuotesStayInsideLiteral() {
    assertThat(SqlSplitter.split("SELECT 'it''s;' ; SELECT `a``;b`; SELECT 3"))
        .containsExactly("SELECT 'it''s;'", "SELECT `a``;b`", "SELECT 3");
  }

  @Test
  void quotesInsideOtherQuotesAreLiteral() {
    assertThat(SqlSplitter.split("SELECT \"it's;\", '\"x;', `'`; SELECT 2"))
        .containsExactly("SELECT \"it's;\", '\"x;', `'`", "SELECT 2");
  }

  @Test
  void backslashInBackQuotesIsNotAnEscape() {
    assertThat(SqlSplitter.split("SELECT 1 AS `a\\`; SELECT 2"))
        .containsExactly("SELECT 1 AS `a\\`", "SELECT 2");
  }

  @Test
  void removesLineComments() {
    assertThat(SqlSplitter.split("-- header; not a statement\nSELECT 1; -- tail;\nSELECT 2 -- x"))
        .containsExactly("SELECT 1", "SELECT 2");
  }

  @Test
  void lineCommentKeepsItsNewlineSoTokensStayApart() {
    assertThat(SqlSplitter.split("SELECT 1 AS a--c\nFROM t"))
        .containsExactly("SELECT 1 AS a\nFROM t");
  }

  @Test
  void commentMarkersInsideQuotesAreText() {
    assertThat(SqlSplitter.split("SELECT '--x', \"/*y*/\", `--z`; SELECT 2"))
        .containsExactly("SELECT '--x', \"/*y*/\", `--z`", "SELECT 2");
  }

  @Test
  void removesBlockCommentsAndKeepsTokensApart() {
    assertThat(SqlSplitter.split("SELECT/* a; b */1/**/AS a; /* only a comment; */"))
        .containsExactly("SELECT 1 AS a");
  }

  @Test
  void removesMultiLineAndNestedBlockComments() {
    String script = "/* outer /* inner; */ still comment; */ SELECT 1;\n/*\n * doc;\n */SELECT 2";
    assertThat(SqlSplitter.split(script)).containsExactly("SELECT 1", "SELECT 2");
  }

  @Test
  void quotesInsideCommentsAreIgnored() {
    assertThat(SqlSplitter.split("-- it's\nSELECT 1; /* \" ` */ SELECT 2"))
        .containsExactly("SELECT 1", "SELECT 2");
  }

  @Test
  void keepsHintComments() {
    String query = "SELECT /*+ BROADCAST(t); */ * FROM t";
    assertThat(SqlSplitter.split(query + "; SELECT 2")).containsExactly(query, "SELECT 2");
  }

  @Test
  void dashInsideExpressionIsNotAComment() {
    assertThat(SqlSplitter.split("SELECT 3 - -1; SELECT 4/2"))
        .containsExactly("SELECT 3 - -1", "SELECT 4/2");
  }

  @Test
  void unterminatedLiteralIsKeptForSparkToReport() {
    assertThat(SqlSplitter.split("SELECT 1; SELECT 'oops;"))
        .containsExactly("SELECT 1", "SELECT 'oops;");
  }

  @Test
  void scanReportsCompleteStatementsAndRawRemainder() {
    SqlSplitter.Result result = SqlSplitter.scan("SELECT 1; SELECT /* c */ 2;\nSELECT\n  3");
    assertThat(result.statements()).containsExactly("SELECT 1", "SELECT   2");
    assertThat(result.remainder()).isEqualTo("\nSELECT\n  3");
    assertThat(result.tail()).isEqualTo("SELECT\n  3");
    assertThat(result.pending()).isTrue();
  }

  @Test
  void scanIsNotPendingAfterOnlyComments() {
    SqlSplitter.Result result = SqlSplitter.scan("SELECT 1; -- done\n");
    assertThat(result.statements()).containsExactly("SELECT 1");
    assertThat(result.pending()).isFalse();
  }

  @Test
  void scanIsPendingInsideOpenQuoteOrComment() {
    assertThat(SqlSplitter.scan("SELECT 'a;\n").pending()).isTrue();
    assertThat(SqlSplitter.scan("SELECT 'a;\n").statements()).isEmpty();
    assertThat(SqlSplitter.scan("/* still open;\n").pending()).isTrue();
    assertThat(SqlSplitter.scan("/* still open;\n").tail()).isEmpty();
  }

  @Test
  void scanResumesWhenRemainderIsExtended() {
    SqlSplitter.Result first = SqlSplitter.scan("SELECT 'a;\n");
    SqlSplitter.Result second = SqlSplitter.scan(first.remainder() + "b';\n");
    assertThat(second.statements()).containsExactly("SELECT 'a;\nb'");
    assertThat(second.pending()).isFalse();
  }
}
