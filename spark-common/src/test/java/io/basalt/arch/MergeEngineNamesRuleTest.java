package io.basalt.arch;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.merge.MergeEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Merge-engine rules live in {@code io.basalt.merge} (DESIGN.md section 6): no main source outside
 * it and {@code io.basalt.options} (which declares the option's values) holds a string literal
 * naming a merge engine, as a name compare would. Messages may still mention an engine inside a
 * longer sentence.
 */
class MergeEngineNamesRuleTest {
  private static final Pattern STRING_LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");
  private static final List<String> MODULES =
      List.of("spark-common", "spark-catalog", "spark-extensions");
  private static final List<String> ALLOWED = List.of("io/basalt/merge/", "io/basalt/options/");

  private static final Set<String> ENGINE_NAMES =
      Stream.of(MergeEngine.Kind.values()).map(MergeEngine.Kind::value).collect(Collectors.toSet());

  /** The main source roots of the modules, found from this module's directory. */
  private static List<Path> sourceRoots() {
    Path root = Path.of("").toAbsolutePath().getParent();
    List<Path> roots = new ArrayList<>();
    for (String module : MODULES) {
      roots.add(root.resolve(module).resolve("src/main/java"));
    }
    return roots;
  }

  /** Every {@code path:line: "literal"} whose literal is an engine name. */
  private static List<String> engineNameLiterals(Path sourceRoot, boolean allowedOnly) {
    List<String> found = new ArrayList<>();
    Path module = sourceRoot.getParent().getParent().getParent().getFileName();
    try (Stream<Path> files = Files.walk(sourceRoot)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String relative = sourceRoot.relativize(file).toString().replace('\\', '/');
        boolean allowed = ALLOWED.stream().anyMatch(relative::startsWith);
        if (allowed != allowedOnly) {
          continue;
        }
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
          Matcher literal = STRING_LITERAL.matcher(lines.get(i));
          while (literal.find()) {
            if (ENGINE_NAMES.contains(literal.group(1).trim().toLowerCase(Locale.ROOT))) {
              found.add(module + "/" + relative + ":" + (i + 1) + ": " + literal.group());
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to scan " + sourceRoot, e);
    }
    return found;
  }

  @Test
  void noEngineNameLiteralOutsideMergeAndOptions() {
    List<String> violations = new ArrayList<>();
    for (Path root : sourceRoots()) {
      assertThat(root).as("source root").isDirectory();
      violations.addAll(engineNameLiterals(root, false));
    }
    assertThat(violations)
        .as(
            "merge-engine names compared outside io.basalt.merge; ask MergeEngine or"
                + " MergeEngineRules instead")
        .isEmpty();
  }

  @Test
  void theScanFindsTheNamesWhereTheyAreDeclared() {
    // guards against a scan that finds nothing at all (a wrong root or pattern)
    List<String> declared = engineNameLiterals(sourceRoots().get(0), true);
    assertThat(declared)
        .anyMatch(line -> line.startsWith("spark-common/io/basalt/merge/MergeEngine.java:"))
        .anyMatch(line -> line.startsWith("spark-common/io/basalt/options/TableOptions.java:"));
    assertThat(ENGINE_NAMES).hasSize(4);
  }
}
