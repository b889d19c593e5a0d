package io.basalt.changelog;

import io.basalt.BasaltException;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.Options;
import io.basalt.options.TableOptions;
import io.basalt.schema.TableSchema;

/** What a table with the {@code full-compaction} changelog producer may not combine it with. */
final class FullCompactionRules {
  private FullCompactionRules() {}

  /**
   * Refuses deletion vectors with the {@code full-compaction} producer, as Paimon does: the level-0
   * promotion of deletion vectors marks the top-level version of a key deleted before the next full
   * compaction compares it, so the changelog would lose its before image.
   *
   * <p>Also checks the columns {@code changelog-producer.row-deduplicate-ignore-fields} names.
   *
   * @throws BasaltException naming the table, both options and the fix
   */
  static void check(TableSchema schema, String producer, Options options, String table) {
    if (ChangelogOptions.FULL_COMPACTION.equals(producer)) {
      RowValueComparison.of(
          new KeyValueLayout(schema), options, table); // checks the ignored fields
    }
    if (ChangelogOptions.FULL_COMPACTION.equals(producer)
        && options.get(TableOptions.DELETION_VECTORS_ENABLED)) {
      throw new BasaltException(
          String.format(
              "Table %s cannot have '%s' = '%s' with '%s' = 'true': deletion vectors work with"
                  + " the 'none', 'input' and 'lookup' producers only (as in Apache Paimon). Fix:"
                  + " set '%s' to 'lookup' for changelog with deletion vectors, or remove '%s'.",
              table,
              ChangelogProducerGuard.OPTION,
              producer,
              TableOptions.DELETION_VECTORS_ENABLED.key(),
              ChangelogProducerGuard.OPTION,
              TableOptions.DELETION_VECTORS_ENABLED.key()));
    }
  }
}
