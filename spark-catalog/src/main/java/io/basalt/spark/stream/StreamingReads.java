package io.basalt.spark.stream;

import io.basalt.BasaltException;
import io.basalt.options.ReadOptions;
import io.basalt.options.StreamOptions;
import io.basalt.spark.SparkTable;
import io.basalt.table.FileStoreTable;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;

/** Starts the streaming reads of the table scans ({@code Scan.toMicroBatchStream}). */
public final class StreamingReads {
  private StreamingReads() {}

  /**
   * The stream of a table's rows, or of {@code t$audit_log}'s rows when {@code rowKinds}.
   *
   * @throws BasaltException for options a stream cannot honour
   */
  public static MicroBatchStream start(FileStoreTable table, boolean rowKinds) {
    for (var option : ReadOptions.INCREMENTAL_OPTIONS) {
      if (table.options().contains(option)) {
        throw new BasaltException(
            String.format(
                "Streaming read of table %s cannot take the batch option '%s'. Fix: remove it and"
                    + " choose where the stream starts with 'scan.mode' (e.g. 'from-snapshot' with"
                    + " 'scan.snapshot-id').",
                table.name(), option.key()));
      }
    }
    if (!rowKinds && table.options().get(StreamOptions.READ_CHANGELOG)) {
      throw new BasaltException(
          String.format(
              "Streaming read of table %s with '%s' = 'true' needs the 'rowkind' column, which"
                  + " the table itself does not have. Fix: read"
                  + " spark.readStream().table(\"<db>.<table>$audit_log\"), or"
                  + " spark.readStream().format(\"paimon\").option(\"%s\", \"true\").load(<path>).",
              table.name(),
              StreamOptions.READ_CHANGELOG.key(),
              StreamOptions.READ_CHANGELOG.key()));
    }
    return new SparkMicroBatchStream(table, SparkTable.sparkSchema(table.schema()), rowKinds);
  }
}
