package io.basalt.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The option table of docs/paimon-compatibility.md is generated from Basalt's option registry and
 * the list of Paimon's option keys ({@link PaimonOptionKeys}), so it cannot drift: an option Basalt
 * adds moves to the "Basalt uses" column. Regenerate with {@code mvn -pl spark-common test
 * -Dtest=PaimonCompatibilityDocTest -Dbasalt.docs.update=true}.
 */
class PaimonCompatibilityDocTest {
  private static final Path DOC = Paths.get("..", "docs", "paimon-compatibility.md");
  static final String BEGIN = "<!-- BEGIN GENERATED PAIMON OPTIONS -->";
  static final String END = "<!-- END GENERATED PAIMON OPTIONS -->";

  /** Paimon's table options (not its Flink or Spark connector options, nor key patterns). */
  static List<String> paimonKeys() {
    return PaimonOptionKeys.keys().stream()
        .filter(key -> PaimonOptionKeys.scope(key).orElseThrow() == PaimonOptionKeys.Scope.CORE)
        .filter(key -> !key.contains("#"))
        .sorted()
        .toList();
  }

  /** The group of a key: its text before the first '.' ({@code changelog.time-retained}). */
  private static String group(String key) {
    int dot = key.indexOf('.');
    return dot < 0 ? key : key.substring(0, dot);
  }

  static String render(List<String> paimon, Set<String> basalt) {
    Map<String, List<Set<String>>> groups = new TreeMap<>();
    for (String key : paimon) {
      List<Set<String>> columns =
          groups.computeIfAbsent(group(key), g -> List.of(new TreeSet<>(), new TreeSet<>()));
      columns.get(basalt.contains(key) ? 0 : 1).add(key);
    }
    StringBuilder sb = new StringBuilder();
    sb.append("| group | Basalt uses | Basalt keeps as table metadata, does not use |\n");
    sb.append("|---|---|---|\n");
    for (Map.Entry<String, List<Set<String>>> group : groups.entrySet()) {
      sb.append("| `")
          .append(group.getKey())
          .append("` | ")
          .append(keys(group.getValue().get(0)))
          .append(" | ")
          .append(keys(group.getValue().get(1)))
          .append(" |\n");
    }
    Set<String> basaltOnly = new TreeSet<>(basalt);
    paimon.forEach(basaltOnly::remove);
    sb.append("| not in Paimon's CoreOptions | ").append(keys(basaltOnly)).append(" | — |\n");
    return sb.toString();
  }

  private static String keys(Set<String> keys) {
    return keys.isEmpty()
        ? "—"
        : keys.stream().map(k -> "`" + k + "`").collect(Collectors.joining(", "));
  }

  private static Set<String> basaltKeys() {
    return OptionRegistry.all().stream()
        .map(ConfigOption::key)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void optionTableFollowsTheRegistry() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int begin = doc.indexOf(BEGIN);
    int end = doc.indexOf(END);
    assertThat(begin).as("generated-options markers in %s", DOC).isGreaterThanOrEqualTo(0);
    assertThat(end).isGreaterThan(begin);
    String expected = "\n" + render(paimonKeys(), basaltKeys());
    String actual = doc.substring(begin + BEGIN.length(), end);
    if (Boolean.getBoolean("basalt.docs.update")) {
      Files.writeString(
          DOC,
          doc.substring(0, begin + BEGIN.length()) + expected + doc.substring(end),
          StandardCharsets.UTF_8);
      return;
    }
    assertThat(actual)
        .as(
            "docs/paimon-compatibility.md is stale; regenerate with mvn -pl spark-common test"
                + " -Dtest=PaimonCompatibilityDocTest -Dbasalt.docs.update=true")
        .isEqualTo(expected);
  }

  @Test
  void everyGroupRowClaimsOnlyWhatTheRegistryHas() {
    String table =
        render(List.of("bucket", "bucket-key", "lookup.cache-rows"), Set.of("bucket", "x"));
    assertThat(table)
        .contains("| `bucket` | `bucket` | — |")
        .contains("| `bucket-key` | — | `bucket-key` |")
        .contains("| `lookup` | — | `lookup.cache-rows` |")
        .contains("| not in Paimon's CoreOptions | `x` | — |");
  }
}
