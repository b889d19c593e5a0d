package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.write.ReplaceWrite;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * CREATE TABLE AS SELECT and REPLACE TABLE (with or without AS SELECT), as Paimon defines them.
 *
 * <ul>
 *   <li>CTAS creates the table at once and drops it when the statement fails.
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
 * table it replaces ({@code REPLACE TABLE t AS SELECT * FROM t}) reads the old rows.
 */
final class StagedTables {
  /** Where a re-created table is built, inside the database directory; not a table itself. */
  static final String STAGING_DIR = ".basalt-staging";

  private StagedTables() {}

  /** CTAS: the table exists from the start; a failed statement drops it again. */
  static StagedTable create(
      SparkCatalog catalog,
      Identifier ident,
      StructType schema,
      Transform[] partitions,
      Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    SparkTable table = (SparkTable) catalog.createTable(ident, schema, partitions, properties);
    return new StagedSparkTable(
        table, table::newWriteBuilder, () -> {}, () -> catalog.dropTable(ident));
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
    TableSchema next =
        CreateTableSchemas.fromSpark(
            existing.name(), existing.schema().id() + 1, schema, partitions, properties);
    if (next.partitionKeys().equals(existing.schema().partitionKeys())) {
      return inPlace(existing, next);
    }
    TableSchema first =
        CreateTableSchemas.fromSpark(existing.name(), 0, schema, partitions, properties);
    return recreate(catalog.fileIO(), catalog.tablePath(ident), existing.name(), first);
  }

  private static StagedTable inPlace(FileStoreTable existing, TableSchema next) {
    FileStoreTable target = existing.copyWithSchema(next);
    InPlaceReplace replace = new InPlaceReplace(existing, target);
    return new StagedSparkTable(
        new SparkTable(target),
        info -> new ReplaceWrite(SessionOptions.apply(target, info.options()), replace::commit),
        replace::commitWithoutRows,
        () -> {});
  }

  private static StagedTable recreate(
      FileIO fileIO, Path tablePath, String name, TableSchema first) {
    Path staging =
        new Path(
            new Path(tablePath.getParent(), STAGING_DIR),
            tablePath.getName() + "-" + UUID.randomUUID());
    SparkTable fresh = new SparkTable(FileStoreTable.create(fileIO, staging, name, first));
    return new StagedSparkTable(
        fresh,
        fresh::newWriteBuilder,
        () -> moveIntoPlace(fileIO, staging, tablePath, name),
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

  /** Replaces a table in place, once: with the rows of the AS SELECT, or with none. */
  private static final class InPlaceReplace {
    private final FileStoreTable existing;
    private final FileStoreTable target;
    private final String commitUser = UUID.randomUUID().toString();
    private boolean done;

    InPlaceReplace(FileStoreTable existing, FileStoreTable target) {
      this.existing = existing;
      this.target = target;
    }

    /** REPLACE TABLE without AS SELECT: nothing was written. */
    void commitWithoutRows() {
      if (!done) {
        commit(List.of());
      }
    }

    /**
     * Removes the old rows, then commits the new schema, then the new files. The old rows go first
     * so they are never visible under the new schema, whose field ids may mean other columns.
     */
    void commit(List<CommitMessage> files) {
      done = true;
      long expected = existing.schema().id();
      if (existing.schemaManager().latest().map(TableSchema::id).orElse(-1L) != expected) {
        throw concurrentChange(false);
      }
      existing.newCommit(commitUser).dropPartitions(null, Snapshot.BATCH_COMMIT_IDENTIFIER);
      if (!existing.schemaManager().tryCommit(target.schema())) {
        throw concurrentChange(true);
      }
      if (!files.isEmpty()) {
        target.newCommit(commitUser).commit(files, Snapshot.BATCH_COMMIT_IDENTIFIER);
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
