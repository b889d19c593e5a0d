package io.basalt.spark.stream;

import io.basalt.BasaltException;
import io.basalt.options.ConfigOption;
import io.basalt.options.ReadOptions;
import io.basalt.options.StreamOptions;
import io.basalt.spark.SparkTable;
import io.basalt.table.FileStoreTable;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Map;
import java.util.SortedSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;

/** Starts the streaming reads of the table scans ({@code Scan.toMicroBatchStream}). */
public final class StreamingReads {
  private StreamingReads() {}

  /**
   * Refuses streaming-only options given to a batch read (as read options or session confs, not
   * table properties): a batch read would ignore them and return other rows than asked for.
   *
   * @throws BasaltException naming the first such option, its value and the fix
   */
  public static void checkBatch(FileStoreTable table) {
    Map<String, String> stored = table.schema().options();
    Map<String, String> effective = table.options().toMap();
    for (String key : STREAM_ONLY) {
      if (effective.containsKey(key) && !effective.get(key).equals(stored.get(key))) {
        throw new BasaltException(
            String.format(
                "Read option '%s' = '%s' on table %s is not supported by Basalt in a batch read"
                    + " (it applies to streaming reads, docs/streaming.md), so it would be"
                    + " ignored. A batch read selects its snapshot with %s and its branch with"
                    + " '%s'. Fix: remove the option, or read with spark.readStream().",
                key,
                effective.get(key),
                table.name(),
                ReadOptions.TIME_TRAVEL_OPTIONS.stream()
                    .map(o -> "'" + o.key() + "'")
                    .collect(Collectors.joining(", ")),
                ReadOptions.BRANCH.key()));
      }
    }
  }

  private static final SortedSet<String> STREAM_ONLY =
      Arrays.stream(StreamOptions.class.getFields())
          .map(StreamingReads::keyOf)
          .collect(Collectors.toCollection(java.util.TreeSet::new));

  private static String keyOf(Field field) {
    try {
      return ((ConfigOption<?>) field.get(null)).key();
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Option constant " + field + " is not public", e);
    }
  }

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
