package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.options.ConfigOption;
import io.basalt.options.OptionRegistry;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.write.ReplaceWrite;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.types.StructType;

/**
 * CREATE TABLE AS SELECT and REPLACE TABLE (with or without AS SELECT), as Paimon defines them.
 *
 * <ul>
 *   <li>CTAS creates the table when its rows are written and drops it when the statement fails.
 *   <li>REPLACE TABLE that keeps the partition keys keeps the table and its history: an OVERWRITE
 *       snapshot removes every row, the new definition becomes the next schema (columns, primary
 *       key, options may all change), then the new rows are committed. Old snapshots stay readable
 *       with {@code VERSION AS OF}.
 *   <li>REPLACE TABLE that changes the partition keys drops the table and creates it again, so its
 *       history is lost (Paimon does the same: old manifests cannot be read with new partition
 *       keys). The new table is built in a staging directory and moved into place at the end.
 * </ul>
 *
 * In both REPLACE forms nothing changes until the new rows are written, so a query that reads the
 * table it replaces ({@code REPLACE TABLE t AS SELECT * FROM t}) reads the old rows. Write options
 * that are table options ({@code df.write.option("primary-key", "a").saveAsTable(t)}) become table
 * options of the new definition, as in Paimon; other write options stay write options.
 */
final class StagedTables {
  /** Where a re-created table is built, inside the database directory; not a table itself. */
  static final String STAGING_DIR = ".basalt-staging";

  // the merge-schema switches of a CTAS/saveAsTable describe that write, as in Paimon
  private static final Set<String> TABLE_OPTIONS =
      OptionRegistry.all().stream()
          .map(ConfigOption::key)
          .filter(key -> !io.basalt.options.MergeSchemaOptions.KEYS.contains(key))
          .collect(Collectors.toSet());

  private StagedTables() {}

  /** A table definition from Spark, completed by the statement's write options. */
  private record Definition(
      String name, StructType columns, Transform[] partitions, Map<String, String> properties) {
    /** The definition as schema {@code id}, with the table options among {@code writeOptions}. */
    TableSchema schema(long id, Map<String, String> writeOptions) {
      Map<String, String> merged = new HashMap<>(properties);
      writeOptions.forEach(
          (key, value) -> {
            if (TABLE_OPTIONS.contains(key)) {
              merged.put(key, value);
            }
          });
      return CreateTableSchemas.fromSpark(name, id, columns, partitions, merged);
    }

    TableSchema schema(long id, LogicalWriteInfo info) {
      return schema(id, info.options().asCaseSensitiveMap());
    }
  }

  /** CTAS: the table exists once its rows are written; a failed statement drops it again. */
  static StagedTable create(
      SparkCatalog catalog,
      Identifier ident,
      StructType schema,
      Transform[] partitions,
      Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    if (!catalog.namespaceExists(ident.namespace())) {
      throw new NoSuchNamespaceException(ident.namespace());
    }
    if (catalog.tableExists(ident)) {
      throw new TableAlreadyExistsException(ident);
    }
    Definition definition = new Definition(tableName(ident), schema, partitions, properties);
    Path path = catalog.tablePath(ident);
    Lazy created =
        new Lazy(
            schema0 -> FileStoreTable.create(catalog.fileIO(), path, definition.name(), schema0));
    return new StagedSparkTable(
        definition.name(),
        definition.schema(0, Map.of()),
        info -> new SparkTable(created.get(definition.schema(0, info))).newWriteBuilder(info),
        () -> created.get(definition.schema(0, Map.of())),
        () -> {
          if (created.isDone()) {
            catalog.dropTable(ident);
          }
        });
  }

  /** REPLACE TABLE of an existing table. */
  static StagedTable replace(
      SparkCatalog catalog,
      Identifier ident,
      StructType schema,
      Transform[] partitions,
      Map<String, String> properties)
      throws NoSuchTableException {
    if (!catalog.tableExists(ident)) {
      throw new NoSuchTableException(ident);
    }
    FileStoreTable existing = catalog.loadFileStoreTable(ident);
    Definition definition = new Definition(existing.name(), schema, partitions, properties);
    TableSchema next = definition.schema(existing.schema().id() + 1, Map.of());
    if (next.partitionKeys().equals(existing.schema().partitionKeys())) {
      return inPlace(existing, definition, next);
    }
    return recreate(catalog.fileIO(), catalog.tablePath(ident), definition);
  }

  private static StagedTable inPlace(
      FileStoreTable existing, Definition definition, TableSchema preview) {
    InPlaceReplace replace = new InPlaceReplace(existing);
    long id = preview.id();
    return new StagedSparkTable(
        existing.name(),
        preview,
        info -> {
          FileStoreTable target = existing.copyWithSchema(definition.schema(id, info));
          return new ReplaceWrite(
              SessionOptions.apply(target, info.options()),
              files -> replace.commit(target.schema(), files));
        },
        () -> replace.commitWithoutRows(preview),
        () -> {});
  }

  private static StagedTable recreate(FileIO fileIO, Path tablePath, Definition definition) {
    Path staging =
        new Path(
            new Path(tablePath.getParent(), STAGING_DIR),
            tablePath.getName() + "-" + UUID.randomUUID());
    Lazy fresh =
        new Lazy(schema0 -> FileStoreTable.create(fileIO, staging, definition.name(), schema0));
    return new StagedSparkTable(
        definition.name(),
        definition.schema(0, Map.of()),
        info -> new SparkTable(fresh.get(definition.schema(0, info))).newWriteBuilder(info),
        () -> {
          fresh.get(definition.schema(0, Map.of()));
          moveIntoPlace(fileIO, staging, tablePath, definition.name());
        },
        () -> fileIO.delete(staging, true));
  }

  private static void moveIntoPlace(FileIO fileIO, Path staging, Path tablePath, String name) {
    fileIO.delete(tablePath, true);
    try {
      if (!fileIO.fileSystem(tablePath).rename(staging, tablePath)) {
        throw new BasaltException(
            String.format(
                "REPLACE TABLE %s dropped the old table but could not move the new one from %s to"
                    + " %s. Fix: move that directory to %s by hand.",
                name, staging, tablePath, tablePath));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to move " + staging + " to " + tablePath, e);
    }
  }

  private static String tableName(Identifier ident) {
    return String.join(".", ident.namespace()) + "." + ident.name();
  }

  /** A table created on first use, with the schema known by then. */
  private static final class Lazy {
    private final java.util.function.Function<TableSchema, FileStoreTable> factory;
    private FileStoreTable table;

    Lazy(java.util.function.Function<TableSchema, FileStoreTable> factory) {
      this.factory = factory;
    }

    FileStoreTable get(TableSchema schema) {
      if (table == null) {
        table = factory.apply(schema);
      }
      return table;
    }

    boolean isDone() {
      return table != null;
    }
  }

  /** Replaces a table in place, once: with the rows of the AS SELECT, or with none. */
  private static final class InPlaceReplace {
    private final FileStoreTable existing;
    private final String commitUser = UUID.randomUUID().toString();
    private boolean done;

    InPlaceReplace(FileStoreTable existing) {
      this.existing = existing;
    }

    /** REPLACE TABLE without AS SELECT: nothing was written. */
    void commitWithoutRows(TableSchema next) {
      if (!done) {
        commit(next, List.of());
      }
    }

    /**
     * Removes the old rows, then commits the new schema, then the new files. The old rows go first
     * so they are never visible under the new schema, whose field ids may mean other columns.
     */
    void commit(TableSchema next, List<CommitMessage> files) {
      done = true;
      long expected = existing.schema().id();
      if (existing.schemaManager().latest().map(TableSchema::id).orElse(-1L) != expected) {
        throw concurrentChange(false);
      }
      existing.newCommit(commitUser).dropPartitions(null, Snapshot.BATCH_COMMIT_IDENTIFIER);
      if (!existing.schemaManager().tryCommit(next)) {
        throw concurrentChange(true);
      }
      if (!files.isEmpty()) {
        existing
            .copyWithSchema(next)
            .newCommit(commitUser)
            .commit(files, Snapshot.BATCH_COMMIT_IDENTIFIER);
      }
    }

    private BasaltException concurrentChange(boolean truncated) {
      return new BasaltException(
          String.format(
              "REPLACE TABLE %s lost a race: another statement changed the table's schema (schema"
                  + " %s was expected to be the latest)%s. Fix: run the REPLACE TABLE again.",
              existing.name(),
              existing.schema().id(),
              truncated ? "; the old rows were already removed" : "; nothing was changed"));
    }
  }
}
