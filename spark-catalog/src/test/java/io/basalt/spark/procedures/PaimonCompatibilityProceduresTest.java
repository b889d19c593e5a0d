package io.basalt.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The procedure table of docs/paimon-compatibility.md names every procedure Basalt registers as
 * supported, and none it registers as "not yet", so the page cannot drift from the code.
 */
class PaimonCompatibilityProceduresTest {
  private static final Path DOC = Paths.get("..", "docs", "paimon-compatibility.md");
  private static final Pattern NAME = Pattern.compile("`([a-z_]+)`");

  /** The procedure names in the rows of the page's Procedures table with the given status. */
  private static List<String> namesWithStatus(String status) throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int start = doc.indexOf("## Procedures");
    String section = doc.substring(start, doc.indexOf("\n## ", start + 1));
    List<String> names = new ArrayList<>();
    for (String line : section.lines().toList()) {
      String[] cells = line.split("\\|");
      if (cells.length >= 3 && cells[2].trim().startsWith(status)) {
        Matcher name = NAME.matcher(cells[1]);
        while (name.find()) {
          names.add(name.group(1));
        }
      }
    }
    return names;
  }

  @Test
  void everyRegisteredProcedureIsListedAsSupported() throws IOException {
    assertThat(namesWithStatus("supported")).containsAll(Procedures.names());
  }

  @Test
  void noRegisteredProcedureIsListedAsMissing() throws IOException {
    List<String> notYet = namesWithStatus("not yet");
    assertThat(notYet).isNotEmpty().doesNotContainAnyElementsOf(Procedures.names());
  }
}
