package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.schema.TableSchema;
import io.basalt.table.FileStoreTable;
import io.basalt.table.TableNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * The table directories behind {@link SparkCatalog}'s identifiers (by name, by path, or a branch):
 * loading, creating, altering, renaming and dropping them, so the catalog only adapts Spark's API.
 */
final class CatalogTables {
  /** How often an ALTER TABLE that loses the race for the next schema id starts again. */
  private static final int ALTER_ATTEMPTS = 5;

  private final FileIO fileIO;
  @Nullable private final Warehouse warehouse;

  /**
   * @param warehouse null for a path-only catalog
   */
  CatalogTables(FileIO fileIO, @Nullable Warehouse warehouse) {
    this.fileIO = fileIO;
    this.warehouse = warehouse;
  }

  /**
   * @param checkLatest whether to check the latest snapshot's schema; time travel does not read the
   *     latest snapshot, so a damaged latest snapshot must not stop it from reading an older one
   */
  FileStoreTable load(Identifier ident, boolean checkLatest) throws NoSuchTableException {
    TableName parsed = TableName.parse(ident, exists(ident));
    if (parsed.systemTable() != null) {
      throw new NoSuchTableException(ident);
    }
    if (parsed.branch() != null) {
      FileStoreTable table = loadBaseTable(parsed.base(), checkLatest);
      FileStoreTable branch = table.switchToBranch(parsed.branch());
      return checkLatest ? LatestSchemaCheck.check(branch) : branch;
    }
    return loadBaseTable(ident, checkLatest);
  }

  /**
   * The table a time-travel read of {@code ident} pins: the data table of a system table, without
   * the latest-schema check.
   */
  FileStoreTable loadForTimeTravel(Identifier ident, TableName parsed) throws NoSuchTableException {
    return load(parsed.systemTable() == null ? ident : parsed.dataTable(), false);
  }

  private FileStoreTable loadBaseTable(Identifier ident, boolean checkLatest)
      throws NoSuchTableException {
    if (isPathIdentifier(ident)) {
      Path path = new Path(ident.name());
      try {
        FileStoreTable table = FileStoreTable.load(fileIO, path, path.getName());
        // a DataFrame read whose time-travel options select an older schema (see SparkSource)
        Long schemaId = SparkSource.schemaIdOf(ident);
        return schemaId == null || schemaId == table.schema().id()
            ? table
            : table.copyWithSchema(table.schemaManager().schema(schemaId));
      } catch (TableNotFoundException e) {
        // Spark's TABLE_OR_VIEW_NOT_FOUND would name an internal `__path__` namespace
        throw new BasaltException(
            String.format(
                "No Basalt or Paimon table at path %s: it has no 'schema' directory. Fix: give"
                    + " the table's own directory (<warehouse>/<db>.db/<table>), or create the"
                    + " table first with CREATE TABLE.",
                path),
            e);
      }
    }
    if (ident.namespace().length != 1) {
      throw new NoSuchTableException(ident);
    }
    try {
      FileStoreTable table = FileStoreTable.load(fileIO, tablePath(ident), tableName(ident));
      return checkLatest ? LatestSchemaCheck.check(table) : table;
    } catch (TableNotFoundException e) {
      throw new NoSuchTableException(ident);
    }
  }

  /** Creates table {@code ident} from Spark's CREATE TABLE arguments. */
  FileStoreTable create(
      Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException {
    if (exists(ident)) {
      throw new TableAlreadyExistsException(ident);
    }
    TableSchema tableSchema =
        CreateTableSchemas.fromSpark(tableName(ident), schema, partitions, properties);
    try {
      return FileStoreTable.create(fileIO, tablePath(ident), tableName(ident), tableSchema);
    } catch (BasaltException e) {
      if (exists(ident)) {
        throw new TableAlreadyExistsException(ident);
      }
      throw e;
    }
  }

  /**
   * Writes the next schema version. A concurrent ALTER that took the same schema id first makes
   * this one start again from the new latest schema (its changes are checked again against it).
   */
  FileStoreTable alter(Identifier ident, TableChange... changes) throws NoSuchTableException {
    for (int attempt = 0; attempt < ALTER_ATTEMPTS; attempt++) {
      FileStoreTable table = load(ident, true);
      TableSchema next = AlterTableSchemas.apply(table, changes);
      if (table.schemaManager().tryCommit(next)) {
        return table.copyWithSchema(next);
      }
    }
    throw new BasaltException(
        "Table "
            + tableName(ident)
            + " was altered concurrently "
            + ALTER_ATTEMPTS
            + " times while this ALTER TABLE ran; nothing was changed. Fix: retry the ALTER"
            + " TABLE.");
  }

  boolean drop(Identifier ident) {
    if (!exists(ident)) {
      return false;
    }
    return fileIO.delete(tablePath(ident), true);
  }

  void rename(Identifier from, Identifier to)
      throws NoSuchTableException, TableAlreadyExistsException {
    if (!exists(from)) {
      throw new NoSuchTableException(from);
    }
    if (exists(to)) {
      throw new TableAlreadyExistsException(to);
    }
    Path target = tablePath(to);
    try {
      if (!fileIO.fileSystem(target).rename(tablePath(from), target)) {
        throw new BasaltException(
            "Failed to rename table " + tableName(from) + " to " + tableName(to));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to rename " + tablePath(from) + " to " + target, e);
    }
  }

  boolean exists(Identifier ident) {
    if (isPathIdentifier(ident)) {
      return fileIO.exists(new Path(new Path(ident.name()), "schema"));
    }
    return ident.namespace().length == 1 && fileIO.exists(new Path(tablePath(ident), "schema"));
  }

  Path tablePath(Identifier ident) {
    return warehouse.tablePath(ident.namespace()[0], ident.name());
  }

  static String tableName(Identifier ident) {
    return String.join(".", ident.namespace()) + "." + ident.name();
  }

  private static boolean isPathIdentifier(Identifier ident) {
    return ident.namespace().length >= 1
        && SparkCatalog.PATH_NAMESPACE.equals(ident.namespace()[0]);
  }
}
