package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The seed SQL table: every SQL statement of the three seed documents, in order, with its expected
 * outcome (works as written, a clear error for a mistake in the seed, or pending on the issue that
 * builds what it needs). The statements and outcomes are in {@code src/test/resources/seeds/}; its
 * README explains the markers.
 */
class SeedSqlIT extends SparkTestBase {
  private static final List<String> SEEDS = List.of("seed-001", "seed-003", "seed-004");

  /** One statement of a seed file: its marker, the marker's argument and the SQL. */
  record Entry(String kind, String argument, String sql, int line) {
    String title() {
      String first = sql.lines().filter(l -> !l.isBlank()).findFirst().orElse("").trim();
      return String.format("line %d @%s: %s", line, kind, first);
    }
  }

  @TestFactory
  Stream<DynamicNode> seedStatements() {
    return SEEDS.stream()
        .map(
            seed ->
                DynamicContainer.dynamicContainer(
                    seed,
                    Stream.concat(
                        parse(seed, read(seed)).stream()
                            .map(e -> DynamicTest.dynamicTest(e.title(), () -> run(e))),
                        Stream.of(DynamicTest.dynamicTest("reset " + seed, this::reset)))));
  }

  private void reset() {
    spark.sql("RESET");
    spark.sql("USE paimon.default");
  }

  private void run(Entry entry) {
    switch (entry.kind()) {
      case "works", "setup" -> spark.sql(entry.sql()).collectAsList();
      case "error" ->
          assertThatThrownBy(() -> spark.sql(entry.sql()).collectAsList())
              .as(entry.title())
              .hasMessageContaining(entry.argument());
      case "pending" -> Assumptions.abort("pending " + entry.argument());
      case "rows" -> {
        List<String> expected =
            entry.argument().isEmpty()
                ? List.of()
                : Arrays.stream(entry.argument().split("\\|")).map(String::trim).sorted().toList();
        assertThat(rows(entry.sql().replace("%", "%%"))).as(entry.title()).isEqualTo(expected);
      }
      default -> throw new IllegalStateException("Unknown marker @" + entry.kind());
    }
  }

  private static String read(String seed) {
    String resource = "/seeds/" + seed + ".sql";
    try (InputStream in = SeedSqlIT.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("Missing test resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read " + resource, e);
    }
  }

  /**
   * The entries of a seed file: a {@code -- @kind argument} line, then the statement up to the
   * first line ending with {@code ;}. Comment lines outside statements are the seed's own.
   */
  static List<Entry> parse(String seed, String text) {
    List<Entry> entries = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].trim();
      if (!line.startsWith("-- @")) {
        continue;
      }
      String marker = line.substring(4);
      int space = marker.indexOf(' ');
      String kind = space < 0 ? marker : marker.substring(0, space);
      String argument = space < 0 ? "" : marker.substring(space + 1).trim();
      StringBuilder sql = new StringBuilder();
      int start = i + 2;
      while (++i < lines.length) {
        sql.append(lines[i]).append('\n');
        if (lines[i].trim().endsWith(";")) {
          break;
        }
      }
      String statement = sql.toString().trim();
      if (!statement.endsWith(";")) {
        throw new IllegalStateException(
            String.format("%s line %d: the statement after @%s has no ';'", seed, start - 1, kind));
      }
      entries.add(
          new Entry(kind, argument, statement.substring(0, statement.length() - 1), start - 1));
    }
    return entries;
  }
}
