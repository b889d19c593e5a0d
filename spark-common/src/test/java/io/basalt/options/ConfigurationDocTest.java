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
    checkSection(OptionDocs.BEGIN, OptionDocs.END, OptionDocs.render());
  }

  @Test
  void configurationDocListsPaimonsOptionsBasaltDoesNotImplement() throws IOException {
    checkSection(OptionDocs.PAIMON_BEGIN, OptionDocs.PAIMON_END, OptionDocs.renderPaimonOnly());
  }

  private static void checkSection(String beginMarker, String endMarker, String rendered)
      throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    int begin = doc.indexOf(beginMarker);
    int end = doc.indexOf(endMarker);
    assertThat(begin).as("markers %s in %s", beginMarker, DOC).isGreaterThanOrEqualTo(0);
    assertThat(end).isGreaterThan(begin);
    String expected = "\n" + rendered;
    String actual = doc.substring(begin + beginMarker.length(), end);
    if (Boolean.getBoolean("basalt.docs.update")) {
      Files.writeString(
          DOC,
          doc.substring(0, begin + beginMarker.length()) + expected + doc.substring(end),
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
