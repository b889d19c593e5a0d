package io.basalt.changelog;

import io.basalt.BasaltException;
import java.util.Locale;
import java.util.Map;

/**
 * Refuses to write or expire a table whose {@code changelog-producer} asks for a changelog. Basalt
 * writes no changelog files yet: a write to such a table (typically one Paimon created) would leave
 * Paimon's streaming readers without the changes, and expiration does not know the table's {@code
 * changelog/} files, so it could delete what those readers still need.
 */
public final class ChangelogProducerGuard {
  /** The option, as Paimon spells it. */
  public static final String OPTION = "changelog-producer";

  private static final String NONE = "none";

  private ChangelogProducerGuard() {}

  /**
   * Refuses to change the data or history of an existing table that asks for a changelog.
   *
   * @param options the table's options
   * @param table the table's name, for the message
   * @param action what was refused, e.g. "write to" or "expire snapshots of"
   * @throws BasaltException when the option names a changelog producer
   */
  public static void checkWritable(Map<String, String> options, String table, String action) {
    String producer = producer(options);
    if (producer != null) {
      throw new BasaltException(
          String.format(
              "Cannot %s table %s: it has '%s' = '%s', and Basalt does not produce changelogs yet"
                  + " (only '%s' is supported); nothing was changed. Fix: ALTER TABLE %s UNSET"
                  + " TBLPROPERTIES ('%s') if no reader needs its changelog, or write to it with"
                  + " Apache Paimon.",
              action, table, OPTION, producer, NONE, table, OPTION));
    }
  }

  /**
   * Refuses a new or altered table definition that asks for a changelog.
   *
   * @throws BasaltException when the option names a changelog producer
   */
  public static void checkDefinition(Map<String, String> options, String table) {
    String producer = producer(options);
    if (producer != null) {
      throw new BasaltException(
          String.format(
              "Table %s cannot have '%s' = '%s': Basalt does not produce changelogs yet (only"
                  + " '%s' is supported). Fix: leave '%s' out of the table properties, or set it"
                  + " to '%s'.",
              table, OPTION, producer, NONE, OPTION, NONE));
    }
  }

  /** The configured producer, or null when there is none. */
  private static String producer(Map<String, String> options) {
    String producer = options.get(OPTION);
    return producer == null || producer.trim().toLowerCase(Locale.ROOT).equals(NONE)
        ? null
        : producer;
  }
}
