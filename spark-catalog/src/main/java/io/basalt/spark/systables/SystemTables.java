package io.basalt.spark.systables;

import io.basalt.BasaltException;
import io.basalt.table.FileStoreTable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/** The system tables of a table, by name ({@code t$snapshots} and so on). */
public final class SystemTables {
  /** The separator between a table name and a system table name, as in Paimon. */
  public static final char SEPARATOR = '$';

  private static final Map<String, Function<FileStoreTable, SystemTable>> TABLES =
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
  }

  private SystemTables() {}

  /**
   * System table {@code name} of {@code table}.
   *
   * @throws BasaltException naming the known system tables when {@code name} is none of them
   */
  public static SystemTable load(FileStoreTable table, String name) {
    Function<FileStoreTable, SystemTable> factory =
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
