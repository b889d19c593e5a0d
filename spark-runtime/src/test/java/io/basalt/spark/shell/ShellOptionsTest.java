package io.basalt.spark.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShellOptionsTest {

  @Test
  void defaultsToInteractiveTableOutput() {
    ShellOptions options = ShellOptions.parse(List.of());
    assertThat(options.interactive()).isTrue();
    assertThat(options.output()).isEqualTo(OutputFormat.TABLE);
    assertThat(options.verbose()).isFalse();
    assertThat(options.help()).isFalse();
    assertThat(options.warehouse()).isNull();
    assertThat(options.conf()).isEmpty();
  }

  @Test
  void parsesEveryOption() {
    ShellOptions options =
        ShellOptions.parse(
            List.of(
                "-e",
                "SELECT 1",
                "--warehouse",
                "/tmp/wh",
                "--conf",
                "a=1",
                "--conf",
                "b=x=y",
                "--output",
                "TSV",
                "--verbose"));
    assertThat(options.sql()).isEqualTo("SELECT 1");
    assertThat(options.interactive()).isFalse();
    assertThat(options.warehouse()).isEqualTo("/tmp/wh");
    assertThat(options.conf()).isEqualTo(Map.of("a", "1", "b", "x=y"));
    assertThat(options.output()).isEqualTo(OutputFormat.TSV);
    assertThat(options.verbose()).isTrue();
  }

  @Test
  void laterConfWinsAndEmptyValueIsAllowed() {
    ShellOptions options =
        ShellOptions.parse(List.of("--conf", "k=1", "--conf", "k=2", "--conf", "e="));
    assertThat(options.conf()).isEqualTo(Map.of("k", "2", "e", ""));
  }

  @Test
  void parsesFileAndHelp() {
    assertThat(ShellOptions.parse(List.of("-f", "x.sql")).file()).isEqualTo("x.sql");
    assertThat(ShellOptions.parse(List.of("--help")).help()).isTrue();
    assertThat(ShellOptions.parse(List.of("-h")).help()).isTrue();
  }

  @Test
  void rejectsInvalidArguments() {
    assertThatThrownBy(() -> ShellOptions.parse(List.of("--bogus")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown argument '--bogus'");
    assertThatThrownBy(() -> ShellOptions.parse(List.of("-e")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Missing value after -e");
    assertThatThrownBy(() -> ShellOptions.parse(List.of("--conf", "novalue")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid value 'novalue' for --conf: expected key=value");
    assertThatThrownBy(() -> ShellOptions.parse(List.of("--output", "csv")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid value 'csv' for --output: expected 'table' or 'tsv'");
    assertThatThrownBy(() -> ShellOptions.parse(List.of("-e", "SELECT 1", "-f", "x.sql")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Use either -e or -f, not both");
  }
}
