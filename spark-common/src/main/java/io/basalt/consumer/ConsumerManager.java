package io.basalt.consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The streaming consumers of a table, Paimon's layout: {@code consumer/consumer-<id>} beside {@code
 * snapshot/}, holding {@code {"nextSnapshot": n}}, the first snapshot the consumer has not read
 * yet. A file's modification time is the consumer's last sign of life.
 */
public final class ConsumerManager {
  private static final String PREFIX = "consumer-";
  private static final Pattern LEGAL_ID = Pattern.compile("[A-Za-z0-9_\\-][A-Za-z0-9_.\\-]*");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final FileIO fileIO;
  private final Path dir;

  public ConsumerManager(FileIO fileIO, TablePaths paths) {
    this.fileIO = fileIO;
    this.dir = new Path(paths.branchDir(paths.branch()), "consumer");
  }

  /**
   * @throws BasaltException when {@code id} cannot name a consumer file
   */
  public static void checkId(String id, String table) {
    if (!LEGAL_ID.matcher(id).matches()) {
      throw new BasaltException(
          String.format(
              "Invalid 'consumer-id' = '%s' for table %s: it names the file consumer/consumer-<id>"
                  + " and may hold only letters, digits, '-', '_' and '.' (not first). Fix: choose"
                  + " an id like 'orders-to-warehouse'.",
              id, table));
    }
  }

  private Path file(String id) {
    return new Path(dir, PREFIX + id);
  }

  /** The next snapshot consumer {@code id} reads, or empty when there is no such consumer. */
  public OptionalLong nextSnapshot(String id) {
    Path path = file(id);
    if (!fileIO.exists(path)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(parse(path));
  }

  private long parse(Path path) {
    try {
      JsonNode node = MAPPER.readTree(fileIO.readUtf8(path));
      JsonNode next = node == null ? null : node.get("nextSnapshot");
      if (next == null || !next.canConvertToLong()) {
        throw new BasaltException(
            "Consumer file " + path + " has no 'nextSnapshot'. Fix: delete the file.");
      }
      return next.asLong();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read consumer file " + path, e);
    }
  }

  /** Records that consumer {@code id} reads snapshot {@code nextSnapshot} next. */
  public void record(String id, long nextSnapshot) {
    try {
      fileIO.overwriteUtf8(file(id), "{\"nextSnapshot\":" + nextSnapshot + "}");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot record consumer " + id + " in " + dir, e);
    }
  }

  /** The ids of the table's consumers, sorted. */
  public List<String> ids() {
    List<String> ids = new ArrayList<>();
    if (fileIO.exists(dir)) {
      for (FileStatus status : fileIO.list(dir)) {
        String name = status.getPath().getName();
        if (name.startsWith(PREFIX) && name.length() > PREFIX.length()) {
          ids.add(name.substring(PREFIX.length()));
        }
      }
    }
    Collections.sort(ids);
    return ids;
  }

  /** Deletes consumer {@code id}; false when there was no such consumer. */
  public boolean delete(String id) {
    return fileIO.exists(file(id)) && fileIO.delete(file(id), false);
  }

  /**
   * The smallest next snapshot of the consumers alive at {@code nowMillis}; deletes the files of
   * consumers not updated within {@code expirationMillis} (null: consumers never expire).
   */
  public OptionalLong minNextSnapshot(@Nullable Long expirationMillis, long nowMillis) {
    if (!fileIO.exists(dir)) {
      return OptionalLong.empty();
    }
    long min = Long.MAX_VALUE;
    for (FileStatus status : fileIO.list(dir)) {
      String name = status.getPath().getName();
      if (!name.startsWith(PREFIX)) {
        continue;
      }
      if (expirationMillis != null && status.getModificationTime() + expirationMillis < nowMillis) {
        fileIO.delete(status.getPath(), false); // an abandoned consumer holds nothing back
        continue;
      }
      min = Math.min(min, parse(status.getPath()));
    }
    return min == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(min);
  }
}
