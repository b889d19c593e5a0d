package io.basalt.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md must list exactly the options the code declares. Regenerate with {@code mvn
 * -pl spark-common test -Dtest=ConfigurationDocTest -Dbasalt.docs.update=true}.
 */
class ConfigurationDocTest {
  private static final Path DOC = Paths.get("..", "docs", "configuration.md");

  @Test
  void configurationDocListsEveryOption() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int begin = doc.indexOf(OptionDocs.BEGIN);
    int end = doc.indexOf(OptionDocs.END);
    assertThat(begin).as("generated-options markers in %s", DOC).isGreaterThanOrEqualTo(0);
    assertThat(end).isGreaterThan(begin);
    String expected = "\n" + OptionDocs.render();
    String actual = doc.substring(begin + OptionDocs.BEGIN.length(), end);
    if (Boolean.getBoolean("basalt.docs.update")) {
      Files.writeString(
          DOC,
          doc.substring(0, begin + OptionDocs.BEGIN.length()) + expected + doc.substring(end),
          StandardCharsets.UTF_8);
      return;
    }
    assertThat(actual)
        .as(
            "docs/configuration.md is stale; regenerate with mvn -pl spark-common test"
                + " -Dtest=ConfigurationDocTest -Dbasalt.docs.update=true")
        .isEqualTo(expected);
  }

  @Test
  void everyOptionHasADescriptionAndAKebabCaseKey() {
    for (ConfigOption<?> option : OptionRegistry.all()) {
      assertThat(option.description()).as(option.key()).isNotBlank();
      // Paimon's Spark connector spells its streaming admission-control keys in camelCase
      assertThat(option.key()).as(option.key()).matches("[a-z0-9.\\-]+|read\\.stream\\.[a-zA-Z]+");
    }
  }
}
