package io.basalt.table;

import io.basalt.BasaltException;
import io.basalt.blob.BlobColumns;
import io.basalt.bucket.PostponedBucket;
import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.merge.MergeEngineRules;
import io.basalt.options.BlobOptions;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.MergeEngineOptions;
import io.basalt.options.TableOptions;
import java.util.List;

/**
 * Which row-level SQL statements a table accepts, by merge engine, as Paimon 2.x defines it. A
 * primary-key DELETE writes a retraction (-D) row per deleted key when the merge engine honours a
 * delete by key (deduplicate; partial-update and aggregation with a remove option); any engine with
 * {@code ignore-delete} drops the -D rows (such a DELETE changes nothing, as in Paimon); on the
 * other engines it removes the deleted keys' rows from the files holding them ({@link
 * #deletesFromFiles}). A MERGE INTO's DELETE clause writes -D rows only. UPDATE and MERGE INTO
 * write whole new rows, which only deduplicate and partial-update keep as written. Append tables
 * take every statement (their files are rewritten).
 *
 * @since 0.1
 */
public final class RowLevelSupport {
  private RowLevelSupport() {}

  /**
   * Checks that {@code table} takes a DELETE statement: every table does, except a postponed-bucket
   * table whose merge engine cannot retract a key ({@link #deletesFromFiles}), whose rows waiting
   * in the postponed bucket could not be removed.
   *
   * @throws BasaltException naming the table, the merge engine and what to do instead
   */
  public static void checkDelete(FileStoreTable table) {
    if (!deletesFromFiles(table) || table.bucketCount() != PostponedBucket.BUCKET) {
      return;
    }
    throw new BasaltException(
        String.format(
            "DELETE FROM %s is not supported: the table's '%s' is '%s', which cannot remove a row"
                + " by its key alone, so the DELETE removes rows from the files holding them, and"
                + " rows of a postponed-bucket table ('%s' = '%s') wait in files no DELETE can"
                + " see. Fix: ALTER TABLE %s SET TBLPROPERTIES with %s, or delete whole partitions"
                + " (a WHERE clause on partition columns only).",
            table.name(),
            TableOptions.MERGE_ENGINE.key(),
            engine(table).name(),
            TableOptions.BUCKET.key(),
            PostponedBucket.BUCKET,
            table.name(),
            engine(table).optionsAllowingDeleteByKey()));
  }

  /**
   * Checks that {@code table} can apply deletes by writing -D rows, as a MERGE INTO with a {@code
   * THEN DELETE} clause does.
   *
   * @param statement the statement, for the message
   * @throws BasaltException naming the table, the merge engine and the options that allow it
   */
  public static void checkDeleteByKey(FileStoreTable table, String statement) {
    if (!deletesFromFiles(table)) {
      return;
    }
    throw new BasaltException(
        String.format(
            "%s with a DELETE clause on %s is not supported: the table's '%s' is '%s', which"
                + " cannot remove a row by its key alone. Fix: ALTER TABLE %s SET TBLPROPERTIES"
                + " with %s, or remove the rows with DELETE FROM %s (it deletes them from the files"
                + " holding them).",
            statement,
            table.name(),
            TableOptions.MERGE_ENGINE.key(),
            engine(table).name(),
            table.name(),
            engine(table).optionsAllowingDeleteByKey(),
            table.name()));
  }

  /**
   * Whether a DELETE on {@code table} removes the deleted keys' rows from the files holding them
   * (deletion vectors, or rewritten files), as Paimon 2.x does for a primary-key table whose merge
   * engine cannot honour a retraction (-D row): first-row; partial-update without {@code
   * partial-update.remove-record-on-delete} or {@code
   * partial-update.remove-record-on-sequence-group}; aggregation without {@code
   * aggregation.remove-record-on-delete}. Not with {@code ignore-delete}, whose deletes are
   * dropped.
   */
  public static boolean deletesFromFiles(FileStoreTable table) {
    if (!table.hasPrimaryKey() || table.options().get(MergeEngineOptions.IGNORE_DELETE)) {
      return false;
    }
    return !engine(table).deletesByKey();
  }

  /**
   * Checks that {@code table} can take new versions of whole rows, as UPDATE and MERGE INTO write
   * them.
   *
   * @param statement the statement, for the message ({@code UPDATE} or {@code MERGE INTO})
   * @throws BasaltException naming the table and the merge engine otherwise
   */
  public static void checkUpdate(FileStoreTable table, String statement) {
    MergeEngineRules engine = engine(table);
    if (!table.hasPrimaryKey() || engine.replacesWholeRows()) {
      return;
    }
    throw new BasaltException(
        String.format(
            "%s on %s is not supported: the table's '%s' is '%s', which would merge the new row"
                + " into the old one (%s) instead of replacing it. Only 'deduplicate' and"
                + " 'partial-update' tables support UPDATE and MERGE INTO; use INSERT INTO to add"
                + " rows to this table.",
            statement,
            table.name(),
            TableOptions.MERGE_ENGINE.key(),
            engine.name(),
            engine.howVersionsMerge()));
  }

  /**
   * Checks that an append table can have its files rewritten by a copy-on-write DELETE, UPDATE or
   * MERGE INTO: not when it keeps BLOB columns in {@code .blob} files. Paimon changes the rows of
   * such data-evolution tables only through deletion vectors, which these tables cannot enable.
   *
   * @param statement the statement, for the message
   * @throws BasaltException naming the table, the BLOB columns and what to do instead
   */
  public static void checkRewrite(FileStoreTable table, String statement) {
    List<String> blobs = BlobColumns.of(table.rowType(), table.options());
    if (blobs.isEmpty()) {
      return;
    }
    throw new BasaltException(
        String.format(
            "%s on %s is not supported: the table keeps BLOB column(s) %s in .blob files ('%s'),"
                + " and, as in Paimon, rows of a data-evolution table are not rewritten. Fix: drop"
                + " whole partitions (DELETE with a condition on partition columns only), or"
                + " INSERT OVERWRITE the table with the rows to keep.",
            statement, table.name(), blobs, BlobOptions.BLOB_FIELD.key()));
  }

  /** Whether the -D rows of a DELETE on {@code table} are dropped by {@code ignore-delete}. */
  public static boolean deletesIgnored(FileStoreTable table) {
    return table.hasPrimaryKey() && table.options().get(MergeEngineOptions.IGNORE_DELETE);
  }

  /**
   * Whether an UPDATE or MERGE INTO on {@code table} writes each old row as -U before its +U:
   * tables with an input changelog record the rows as written, and consumers need the old image to
   * retract it. Only deduplicate tables, where the -U is replaced by the +U right after it; on
   * partial-update a -U would retract columns the update leaves alone.
   */
  public static boolean writesUpdateBefore(FileStoreTable table) {
    return table.hasPrimaryKey()
        && engine(table).keepsLatestVersionOnly()
        && !deletesIgnored(table)
        && ChangelogOptions.INPUT.equals(ChangelogProducerGuard.producer(table.options()));
  }

  private static MergeEngineRules engine(FileStoreTable table) {
    return MergeEngineRules.of(table.options());
  }
}
