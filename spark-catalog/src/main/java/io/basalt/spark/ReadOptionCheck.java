package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.options.ConfigOption;
import io.basalt.options.OptionRegistry;
import io.basalt.options.ReadOptions;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Refuses read options Basalt does not implement. Paimon passes any option to its table and ignores
 * what it does not know; an ignored read option (a Paimon scan mode, an incremental range, a
 * misspelt key) returns the wrong rows without a word, so Basalt fails the read instead.
 */
final class ReadOptionCheck {
  /** Options Spark's DataFrame reader passes itself. */
  private static final Set<String> SPARK_OPTIONS = Set.of("path", "paths");

  private static final Set<String> KNOWN =
      OptionRegistry.all().stream().map(ConfigOption::key).collect(Collectors.toSet());

  private ReadOptionCheck() {}

  /**
   * @throws BasaltException naming the first unknown option, the table and what Basalt supports
   */
  static void check(String table, CaseInsensitiveStringMap options) {
    for (String key : new TreeSet<>(options.asCaseSensitiveMap().keySet())) {
      if (!KNOWN.contains(key) && !SPARK_OPTIONS.contains(key)) {
        String meant =
            SessionOptionCheck.nearMiss(key).map(m -> " Did you mean '" + m + "'?").orElse("");
        throw new BasaltException(
            String.format(
                "Read option '%s' = '%s' on table %s is not supported by Basalt, so it would be"
                    + " ignored.%s Basalt reads with the table options of docs/configuration.md"
                    + " (time travel: %s; '%s'; split sizes) and Spark's 'path'. Fix: remove the"
                    + " option, or spell a supported one exactly (keys are case-sensitive).",
                key,
                options.asCaseSensitiveMap().get(key),
                table,
                meant,
                ReadOptions.TIME_TRAVEL_OPTIONS.stream()
                    .map(o -> "'" + o.key() + "'")
                    .collect(Collectors.joining(", ")),
                ReadOptions.BRANCH.key()));
      }
    }
  }
}
