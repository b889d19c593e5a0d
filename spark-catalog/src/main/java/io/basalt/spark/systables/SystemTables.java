package io.basalt.spark.systables;

import io.basalt.BasaltException;
import io.basalt.table.FileStoreTable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.connector.catalog.SupportsRead;

/** The system tables of a table, by name ({@code t$snapshots} and so on). */
public final class SystemTables {
  /** The separator between a table name and a system table name, as in Paimon. */
  public static final char SEPARATOR = '$';

  private static final Map<String, Function<FileStoreTable, SupportsRead>> TABLES =
      new LinkedHashMap<>();

  static {
    TABLES.put("snapshots", SnapshotsTable::new);
    TABLES.put("schemas", SchemasTable::new);
    TABLES.put("options", OptionsTable::new);
    TABLES.put("tags", TagsTable::new);
    TABLES.put("files", FilesTable::new);
    TABLES.put("manifests", ManifestsTable::new);
    TABLES.put("partitions", PartitionsTable::new);
    TABLES.put("buckets", BucketsTable::new);
    TABLES.put("branches", BranchesTable::new);
    TABLES.put(AuditLogTable.NAME, AuditLogTable::new);
    TABLES.put(BinlogTable.NAME, BinlogTable::new);
  }

  /** The system tables that read one snapshot's files, and so can time travel. */
  private static final java.util.Set<String> SNAPSHOT_TABLES =
      java.util.Set.of("files", "manifests", "partitions", "buckets");

  private SystemTables() {}

  /**
   * System table {@code name} of {@code table} as of the snapshot {@code table}'s time-travel
   * options select ({@code VERSION AS OF} / {@code TIMESTAMP AS OF} on the system table).
   *
   * @throws BasaltException when that system table does not describe one snapshot
   */
  public static SupportsRead loadAsOf(FileStoreTable table, String name) {
    SupportsRead loaded = load(table, name);
    if (!SNAPSHOT_TABLES.contains(name.toLowerCase(java.util.Locale.ROOT))) {
      throw new BasaltException(
          String.format(
              "System table %s%s%s does not support time travel: it lists the whole history or the"
                  + " current state. Fix: time travel on one of %s, or filter this table by"
                  + " snapshot_id.",
              table.name(),
              SEPARATOR,
              name,
              String.join(", ", new java.util.TreeSet<>(SNAPSHOT_TABLES))));
    }
    return loaded;
  }

  /**
   * System table {@code name} of {@code table}.
   *
   * @throws BasaltException naming the known system tables when {@code name} is none of them
   */
  public static SupportsRead load(FileStoreTable table, String name) {
    Function<FileStoreTable, SupportsRead> factory =
        TABLES.get(name.toLowerCase(java.util.Locale.ROOT));
    if (factory == null) {
      throw new BasaltException(
          String.format(
              "Unknown system table '%s' of table %s (%s%s); known system tables: %s",
              name,
              table.name(),
              table.name() + SEPARATOR,
              name,
              String.join(", ", TABLES.keySet())));
    }
    return factory.apply(table);
  }
}
