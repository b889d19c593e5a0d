package io.basalt.spark.stream;

import io.basalt.operation.incremental.IncrementalSplit;
import io.basalt.options.Options;
import io.basalt.options.StreamOptions;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;

/**
 * The admission-control options of a streaming read. A batch always takes at least one split, so a
 * bucket larger than every limit still moves the stream on.
 */
final class AdmissionLimits {
  private final long maxFiles;
  private final long maxBytes;
  private final long maxRows;
  private final long minRows;
  private final long maxDelayMs;

  AdmissionLimits(Options options) {
    this.maxFiles = options.getOptional(StreamOptions.MAX_FILES_PER_TRIGGER).orElse(-1);
    this.maxBytes = options.getOptional(StreamOptions.MAX_BYTES_PER_TRIGGER).orElse(-1L);
    this.maxRows = options.getOptional(StreamOptions.MAX_ROWS_PER_TRIGGER).orElse(-1L);
    this.minRows = options.getOptional(StreamOptions.MIN_ROWS_PER_TRIGGER).orElse(-1L);
    this.maxDelayMs = options.getOptional(StreamOptions.MAX_TRIGGER_DELAY_MS).orElse(-1L);
  }

  /** The limit Spark passes back to {@code latestOffset} on every trigger. */
  ReadLimit readLimit() {
    List<ReadLimit> limits = new ArrayList<>();
    if (maxFiles > 0) {
      limits.add(ReadLimit.maxFiles((int) maxFiles));
    }
    if (maxBytes > 0) {
      limits.add(ReadLimit.maxBytes(maxBytes));
    }
    if (maxRows > 0) {
      limits.add(ReadLimit.maxRows(maxRows));
    }
    if (minRows > 0) {
      limits.add(ReadLimit.minRows(minRows, maxDelayMs > 0 ? maxDelayMs : Long.MAX_VALUE));
    }
    if (limits.isEmpty()) {
      return ReadLimit.allAvailable();
    }
    return limits.size() == 1
        ? limits.get(0)
        : ReadLimit.compositeLimit(limits.toArray(new ReadLimit[0]));
  }

  /**
   * Whether a batch that has {@code rows} should wait for more, {@code waitedMs} after the last.
   */
  boolean waitForMore(long rows, long waitedMs) {
    return minRows > 0 && rows < minRows && (maxDelayMs <= 0 || waitedMs < maxDelayMs);
  }

  /** A fresh budget for one batch; {@code unlimited} for Spark's read-everything limit. */
  Budget budget(boolean unlimited) {
    return new Budget(unlimited);
  }

  /** What one batch has taken so far. */
  final class Budget {
    private final boolean unlimited;
    private long files;
    private long bytes;
    private long rows;
    private int splits;

    private Budget(boolean unlimited) {
      this.unlimited = unlimited;
    }

    /** Takes {@code split} when it fits, or when the batch has nothing yet. */
    boolean admit(IncrementalSplit split) {
      long splitFiles = split.after().stream().mapToLong(s -> s.files().size()).sum();
      long splitBytes = split.sizeInBytes();
      long splitRows = split.rowCount();
      if (!unlimited
          && splits > 0
          && (exceeds(maxFiles, files + splitFiles)
              || exceeds(maxBytes, bytes + splitBytes)
              || exceeds(maxRows, rows + splitRows))) {
        return false;
      }
      files += splitFiles;
      bytes += splitBytes;
      rows += splitRows;
      splits++;
      return true;
    }

    long rows() {
      return rows;
    }

    private static boolean exceeds(long limit, long value) {
      return limit > 0 && value > limit;
    }
  }
}
