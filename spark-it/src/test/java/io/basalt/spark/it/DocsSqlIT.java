package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.SparkThrowable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every SQL block of {@code docs/*.md} (fenced {@code ```sql}) and every {@code
 * docs/examples/*.sql} file, so the examples cannot rot. The blocks of a page run in order in one
 * session, starting from an empty warehouse (only the {@code default} database) and default
 * settings, so a block may use the tables an earlier block of the same page created.
 *
 * <p>Markers: an HTML comment on the line right before a block's fence changes what is checked.
 *
 * <ul>
 *   <li>{@code <!-- skip -->} or {@code <!-- skip: why -->}: the block is not run (for a block that
 *       needs setup the page does not show, or that is not meant to run as is);
 *   <li>{@code <!-- expect-error: text -->}: some statement of the block must fail with a message
 *       containing {@code text} (later statements of the block are not run).
 * </ul>
 *
 * Without a marker every statement must succeed, with one lenient exception so that examples may
 * refer to a table a page only describes: a block whose statement fails because a table or view is
 * not found is reported as skipped (with the name), not failed. In a {@code .sql} file the marker
 * is a comment line {@code -- skip} or {@code -- expect-error: text} before the statement. A table
 * or database that does not exist (a procedure's too) counts as such a reference. A {@code CREATE
 * TABLE} of a name an earlier block created replaces it, since pages reuse names like {@code t}.
 * Statements end at {@code ;}; a line starting with {@code CALL} also starts a new one.
 */
class DocsSqlIT extends SparkTestBase {
  private static final Pattern CREATE_TABLE =
      Pattern.compile("(?is)\\s*CREATE\\s+TABLE\\s+(?!IF\\s)([\\w.`$]+)");

  /** Basalt's message for a procedure's or table function's table that does not exist. */
  private static final Pattern MISSING_TABLE =
      Pattern.compile("^\\w+: table \\S+( \\([^)]*\\))? does not exist\\.");

  private static final Pattern FENCE = Pattern.compile("^```sql\\s*$");
  private static final Pattern MARKER =
      Pattern.compile(
          "^\\s*(?:<!--|--)\\s*(skip|expect-error)\\s*(?::\\s*(.*?))?\\s*(?:-->)?\\s*$");

  /** One SQL block: where it is, its statements and its marker (null for none). */
  record Block(String page, int line, List<String> statements, String marker, String argument) {
    String title() {
      String first = statements.isEmpty() ? "" : statements.get(0).lines().findFirst().orElse("");
      return String.format(
          "%s:%d %s", page, line, first.length() > 70 ? first.substring(0, 70) : first);
    }
  }

  private static Path docs() {
    Path module = Path.of(System.getProperty("user.dir"));
    for (Path dir : List.of(module.resolve("docs"), module.resolveSibling("docs"))) {
      if (Files.isDirectory(dir)) {
        return dir;
      }
    }
    throw new IllegalStateException("No docs directory next to " + module);
  }

  @TestFactory
  Stream<DynamicNode> docsSqlBlocks() throws IOException {
    List<Path> pages = new ArrayList<>();
    try (Stream<Path> md = Files.list(docs())) {
      md.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    Path examples = docs().resolve("examples");
    if (Files.isDirectory(examples)) {
      try (Stream<Path> sql = Files.list(examples)) {
        sql.filter(p -> p.toString().endsWith(".sql")).sorted().forEach(pages::add);
      }
    }
    return pages.stream().map(this::page);
  }

  private DynamicNode page(Path page) {
    String name = docs().relativize(page).toString();
    List<Block> blocks =
        name.endsWith(".md") ? markdownBlocks(name, read(page)) : sqlFile(name, read(page));
    return DynamicContainer.dynamicContainer(
        name,
        Stream.concat(
            Stream.of(DynamicTest.dynamicTest(name + " (fresh warehouse)", this::freshWarehouse)),
            blocks.stream().map(b -> DynamicTest.dynamicTest(b.title(), () -> run(b)))));
  }

  private void freshWarehouse() {
    spark.sql("RESET");
    spark.sql("USE paimon.default");
    for (Object[] row : sql("SHOW DATABASES")) {
      if (!"default".equals(row[0])) {
        spark.sql("DROP DATABASE `" + row[0] + "` CASCADE");
      }
    }
    for (Object[] row : sql("SHOW TABLES IN default")) {
      spark.sql("DROP TABLE default.`" + row[1] + "`");
    }
  }

  private void run(Block block) {
    if ("skip".equals(block.marker())) {
      Assumptions.abort("marked skip" + (block.argument() == null ? "" : ": " + block.argument()));
    }
    boolean expectError = "expect-error".equals(block.marker());
    for (String statement : block.statements()) {
      try {
        execute(statement);
      } catch (Exception e) { // Spark's AnalysisException is a checked exception
        String message = String.valueOf(e.getMessage());
        if (expectError) {
          assertThat(message).as(block.title()).contains(block.argument());
          return;
        }
        if (needsSetup(e, message)) {
          Assumptions.abort("needs a table or database the page does not create: " + message);
        }
        throw new AssertionError(block.title() + " failed at:\n" + statement + "\n" + message, e);
      }
    }
    assertThat(expectError)
        .as(block.title() + " was marked expect-error: " + block.argument() + " but ran")
        .isFalse();
  }

  /**
   * Runs a statement. A CREATE TABLE of a name an earlier block of the page created (pages often
   * call every example's table {@code t}) drops that table first.
   */
  private void execute(String statement) throws Exception {
    try {
      spark.sql(statement).collectAsList();
    } catch (Exception e) {
      Matcher create = CREATE_TABLE.matcher(statement);
      if (e instanceof SparkThrowable t
          && "TABLE_OR_VIEW_ALREADY_EXISTS".equals(t.getCondition())
          && create.lookingAt()) {
        spark.sql("DROP TABLE " + create.group(1));
        spark.sql(statement).collectAsList();
        return;
      }
      throw e;
    }
  }

  /** A table or database the page only mentions: Spark's errors, or a procedure's or function's. */
  private static boolean needsSetup(Exception e, String message) {
    if (e instanceof SparkThrowable t
        && ("TABLE_OR_VIEW_NOT_FOUND".equals(t.getCondition())
            || "SCHEMA_NOT_FOUND".equals(t.getCondition()))) {
      return true;
    }
    return MISSING_TABLE.matcher(message).find();
  }

  private static String read(Path page) {
    try {
      return Files.readString(page);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read " + page, e);
    }
  }

  /** The fenced {@code sql} blocks of a markdown page, each with the marker on the line before. */
  static List<Block> markdownBlocks(String page, String text) {
    List<Block> blocks = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (!FENCE.matcher(lines[i]).matches()) {
        continue;
      }
      Matcher marker = i > 0 ? MARKER.matcher(lines[i - 1]) : null;
      boolean marked = marker != null && lines[i - 1].contains("<!--") && marker.matches();
      StringBuilder sql = new StringBuilder();
      int start = i + 1;
      while (++i < lines.length && !lines[i].startsWith("```")) {
        sql.append(lines[i]).append('\n');
      }
      blocks.add(
          new Block(
              page,
              start,
              statements(sql.toString()),
              marked ? marker.group(1) : null,
              marked ? marker.group(2) : null));
    }
    return blocks;
  }

  /** A {@code .sql} file: one block per statement, with a {@code -- skip} style marker. */
  static List<Block> sqlFile(String page, String text) {
    List<Block> blocks = new ArrayList<>();
    String pendingMarker = null;
    String pendingArgument = null;
    StringBuilder sql = new StringBuilder();
    String[] lines = text.split("\n", -1);
    int start = 1;
    for (int i = 0; i < lines.length; i++) {
      Matcher marker = MARKER.matcher(lines[i]);
      if (lines[i].trim().startsWith("--") && marker.matches()) {
        pendingMarker = marker.group(1);
        pendingArgument = marker.group(2);
        continue;
      }
      if (sql.toString().isBlank()) {
        start = i + 1;
      }
      sql.append(lines[i]).append('\n');
      List<String> done = statements(sql.toString());
      if (lines[i].trim().endsWith(";") && !done.isEmpty()) {
        blocks.add(new Block(page, start, done, pendingMarker, pendingArgument));
        pendingMarker = null;
        pendingArgument = null;
        sql.setLength(0);
      }
    }
    List<String> rest = statements(sql.toString());
    if (!rest.isEmpty()) {
      blocks.add(new Block(page, start, rest, pendingMarker, pendingArgument));
    }
    return blocks;
  }

  /** Splits SQL text at {@code ;} outside quotes and comments; drops empty statements. */
  static List<String> statements(String text) {
    List<String> result = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote == 0 && c == '-' && text.startsWith("--", i)) {
        int end = text.indexOf('\n', i);
        i = end < 0 ? text.length() - 1 : end;
        current.append('\n');
        continue;
      }
      if (quote == 0 && startsCall(text, i) && !current.toString().isBlank()) {
        add(result, current); // a CALL never continues a statement: blocks list calls unsplit
      }
      if (quote == 0 && (c == '\'' || c == '"' || c == '`')) {
        quote = c;
      } else if (quote != 0 && c == '\\' && quote != '`' && i + 1 < text.length()) {
        current.append(c).append(text.charAt(++i));
        continue;
      } else if (c == quote) {
        quote = 0;
      } else if (quote == 0 && c == ';') {
        add(result, current);
        continue;
      }
      current.append(c);
    }
    add(result, current);
    return result;
  }

  private static boolean startsCall(String text, int i) {
    return (i == 0 || text.charAt(i - 1) == '\n') && text.regionMatches(true, i, "CALL ", 0, 5);
  }

  private static void add(List<String> statements, StringBuilder current) {
    String statement = current.toString().trim();
    if (!statement.isEmpty()) {
      statements.add(statement);
    }
    current.setLength(0);
  }
}
