package io.basalt.operation.read;

import io.basalt.fs.FileIO;
import io.basalt.options.UnreadableFileOptions;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.io.Serializable;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which data files a query may skip when they cannot be read: lost ones with {@code
 * scan.ignore-lost-files}, and ones that exist but fail to open or to read with {@code
 * scan.ignore-corrupt-files}, as Paimon decides (a failure on a file that is gone counts as lost).
 * Every skip is logged as a warning naming the table, the file and the option. Only queries use
 * this; compaction and rewrites always fail on such a file, so that they never commit a table with
 * its rows missing.
 */
public final class UnreadableFiles implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(UnreadableFiles.class);

  private final String table;
  private final boolean corrupt;
  private final boolean lost;

  private UnreadableFiles(String table, boolean corrupt, boolean lost) {
    this.table = table;
    this.corrupt = corrupt;
    this.lost = lost;
  }

  /** The table's setting, empty when neither option is on (every unreadable file fails). */
  public static Optional<UnreadableFiles> of(FileStoreTable table) {
    boolean corrupt = table.options().get(UnreadableFileOptions.SCAN_IGNORE_CORRUPT_FILES);
    boolean lost = table.options().get(UnreadableFileOptions.SCAN_IGNORE_LOST_FILES);
    return corrupt || lost
        ? Optional.of(new UnreadableFiles(table.name(), corrupt, lost))
        : Optional.empty();
  }

  /**
   * Whether the query may go on without the rest of data file {@code path} after {@code failure};
   * logs a warning when it may.
   */
  public boolean skip(FileIO fileIO, Path path, Throwable failure) {
    boolean missing = isMissing(fileIO, path);
    if (missing ? !lost : !corrupt) {
      return false;
    }
    LOG.warn(
        "Table {}: skipping {} data file {} because '{}' is true; its rows are missing from the"
            + " result",
        table,
        missing ? "lost" : "unreadable",
        path,
        missing
            ? UnreadableFileOptions.SCAN_IGNORE_LOST_FILES.key()
            : UnreadableFileOptions.SCAN_IGNORE_CORRUPT_FILES.key(),
        failure);
    return true;
  }

  private static boolean isMissing(FileIO fileIO, Path path) {
    try {
      return !fileIO.exists(path);
    } catch (RuntimeException e) {
      return false; // cannot tell: the failure counts as a damaged file
    }
  }

  /**
   * The rows of {@code path}, ending early (as if the file ended) when reading them fails in a way
   * {@link #skip} allows.
   */
  CloseableIterator<InternalRow> tolerant(
      CloseableIterator<InternalRow> rows, FileIO fileIO, Path path) {
    return new CloseableIterator<>() {
      private boolean ended;

      @Override
      public boolean hasNext() {
        if (ended) {
          return false;
        }
        try {
          return rows.hasNext();
        } catch (RuntimeException e) {
          if (!skip(fileIO, path, e)) {
            throw e;
          }
          ended = true;
          return false;
        }
      }

      @Override
      public InternalRow next() {
        if (ended) {
          throw new NoSuchElementException();
        }
        return rows.next();
      }

      @Override
      public void close() {
        rows.close();
      }
    };
  }
}
