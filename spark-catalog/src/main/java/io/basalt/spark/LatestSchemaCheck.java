package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.table.FileStoreTable;

/** A check of a loaded table against its latest snapshot. */
final class LatestSchemaCheck {
  private LatestSchemaCheck() {}

  /**
   * Fails when the latest snapshot was written under a schema newer than the latest schema file:
   * that schema file was lost, and reading or writing with an older schema would silently drop its
   * options.
   */
  static FileStoreTable check(FileStoreTable table) {
    table
        .latestSnapshot()
        .filter(snapshot -> snapshot.schemaId() > table.schema().id())
        .ifPresent(
            snapshot -> {
              throw new BasaltException(
                  String.format(
                      "Table %s is damaged: snapshot %s was written with schema %s, but schema file"
                          + " %s does not exist (the latest schema file is schema-%s). Fix: restore"
                          + " the schema file from a backup.",
                      table.name(),
                      snapshot.id(),
                      snapshot.schemaId(),
                      table.paths().schemaFile(snapshot.schemaId()),
                      table.schema().id()));
            });
    return table;
  }
}
