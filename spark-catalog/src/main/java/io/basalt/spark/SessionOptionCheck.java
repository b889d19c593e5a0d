package io.basalt.spark;

import io.basalt.BasaltErrorClass;
import io.basalt.BasaltException;
import io.basalt.options.ConfigOption;
import io.basalt.options.NearMiss;
import io.basalt.options.OptionRegistry;
import io.basalt.options.PaimonOptionKeys;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.connector.catalog.SupportsV1OverwriteWithSaveAsTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the keys of DataFrame read/write options and {@code spark.paimon.*} session confs when a
 * scan or write is created: a near miss of an option Basalt implements ({@code target_file_size},
 * {@code scan.snapshot_id}) is an error, since it would be ignored without a word; any other key
 * Basalt does not implement is logged once and ignored, as Paimon ignores options it does not read.
 */
final class SessionOptionCheck {
  private static final Logger LOG = LoggerFactory.getLogger(SessionOptionCheck.class);

  /** Options Spark's DataFrame reader and writer pass themselves. */
  static final Set<String> SPARK_OPTIONS =
      Set.of(
          "path",
          "paths",
          SupportsV1OverwriteWithSaveAsTable.OPTION_NAME,
          // read by the session extensions (HiveStyleDynamicPartitions), not by the table
          "write.hive-style-dynamic-partition.enabled",
          // the DataFrame spelling of write.merge-schema, read by the session extensions
          "mergeSchema");

  static final Set<String> IMPLEMENTED =
      OptionRegistry.all().stream().map(ConfigOption::key).collect(Collectors.toSet());

  /** Keys already logged, so that a conf set for the session is reported once, not per query. */
  private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

  private SessionOptionCheck() {}

  /** The Basalt option {@code key} most likely misspells, if any. */
  static Optional<String> nearMiss(String key) {
    if (IMPLEMENTED.contains(key) || SPARK_OPTIONS.contains(key)) {
      return Optional.empty();
    }
    return NearMiss.closest(key, IMPLEMENTED);
  }

  /**
   * @param source where the key was given, e.g. {@code option 'x'} or {@code session conf
   *     'spark.paimon.x'}
   * @param key the option key it sets
   * @throws BasaltException when the key is a near miss of an option Basalt implements
   */
  static void check(String source, String key, String value, String table) {
    if (IMPLEMENTED.contains(key) || SPARK_OPTIONS.contains(key)) {
      return;
    }
    Optional<String> meant = NearMiss.closest(key, IMPLEMENTED);
    if (meant.isPresent()) {
      throw new BasaltException(
          BasaltErrorClass.BASALT_INVALID_OPTION,
          Map.of("option", key, "value", value, "owner", "table " + table),
          String.format(
              "Unknown %s = '%s' for table %s: did you mean '%s'? Basalt would ignore the"
                  + " misspelt key. Fix: spell it '%s' (keys are case-sensitive).",
              source, value, table, meant.get(), meant.get()),
          null);
    }
    if (LOGGED.add(source)) {
      LOG.warn(
          "Ignoring {} on table {}: {}",
          source,
          table,
          PaimonOptionKeys.contains(key)
              ? "it is a Paimon option Basalt does not implement"
              : "it is not an option Basalt or Paimon knows");
    }
  }
}
