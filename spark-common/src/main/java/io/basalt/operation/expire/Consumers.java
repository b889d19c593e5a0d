package io.basalt.operation.expire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.basalt.BasaltException;
import io.basalt.consumer.ConsumerManager;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.options.StreamOptions;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.util.OptionalLong;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The progress of Paimon's streaming consumers, {@code consumer/consumer-<id>} files holding {@code
 * {"nextSnapshot": N}}: a consumer still has to read snapshot N and later, so expiration keeps
 * them, as Paimon's own expiration does.
 */
final class Consumers {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String PREFIX = "consumer-";

  private Consumers() {}

  /**
   * The oldest snapshot a consumer still needs: the smallest next snapshot of Paimon's consumer
   * files and of Basalt's live streaming consumers (those not expired by {@code
   * consumer.expiration-time}); empty when none.
   */
  static OptionalLong oldestNeeded(FileStoreTable table) {
    OptionalLong paimon = minNextSnapshot(table.fileIO(), table.paths(), table.name());
    OptionalLong live =
        new ConsumerManager(table.fileIO(), table.paths())
            .minNextSnapshot(
                table.options().getOptional(StreamOptions.CONSUMER_EXPIRATION_TIME).orElse(null),
                System.currentTimeMillis());
    if (paimon.isEmpty()) {
      return live;
    }
    return live.isEmpty()
        ? paimon
        : OptionalLong.of(Math.min(paimon.getAsLong(), live.getAsLong()));
  }

  /** The consumer directory beside {@code paths}' snapshot directory. */
  static Path dir(TablePaths paths) {
    return new Path(paths.snapshotDir().getParent(), "consumer");
  }

  /** The smallest next snapshot of any consumer, or empty when the table has none. */
  static OptionalLong minNextSnapshot(FileIO fileIO, TablePaths paths, String table) {
    Path dir = dir(paths);
    if (!fileIO.exists(dir)) {
      return OptionalLong.empty();
    }
    long min = Long.MAX_VALUE;
    for (FileStatus status : fileIO.list(dir)) {
      String name = status.getPath().getName();
      if (!name.startsWith(PREFIX) || status.isDirectory()) {
        continue;
      }
      min = Math.min(min, nextSnapshot(fileIO, status.getPath(), table));
    }
    return min == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(min);
  }

  private static long nextSnapshot(FileIO fileIO, Path file, String table) {
    JsonNode node;
    try {
      node = MAPPER.readTree(fileIO.readUtf8(file)).get("nextSnapshot");
    } catch (IOException e) {
      throw new BasaltException(
          String.format(
              "Cannot read streaming consumer %s of table %s, so expiration cannot tell which"
                  + " snapshots it still needs; nothing was expired. Fix: repair or remove the"
                  + " consumer file.",
              file, table),
          e);
    }
    if (node == null || !node.canConvertToLong()) {
      throw new BasaltException(
          String.format(
              "Streaming consumer %s of table %s has no 'nextSnapshot'; nothing was expired. Fix:"
                  + " repair or remove the consumer file.",
              file, table));
    }
    return node.asLong();
  }
}
