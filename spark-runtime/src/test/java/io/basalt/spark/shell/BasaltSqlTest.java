package io.basalt.spark.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Command-line paths of the shell that end before a Spark session starts. */
class BasaltSqlTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @Test
  void helpPrintsUsage() {
    assertThat(run("--help")).isEqualTo(ShellRunner.SUCCESS);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(ShellOptions.USAGE);
  }

  @Test
  void invalidArgumentsExitWithUsageError() {
    assertThat(run("--output", "xml")).isEqualTo(BasaltSql.USAGE_ERROR);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("Error: Invalid value 'xml' for --output")
        .contains("basalt-sql --help");
  }

  @Test
  void missingFileFails(@TempDir Path dir) {
    Path missing = dir.resolve("missing.sql");
    assertThat(run("-f", missing.toString())).isEqualTo(ShellRunner.FAILURE);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("Error: Cannot read SQL file " + missing);
  }

  private int run(String... args) {
    return BasaltSql.run(
        List.of(args),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }
}
