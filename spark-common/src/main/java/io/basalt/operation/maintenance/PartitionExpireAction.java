package io.basalt.operation.maintenance;

import io.basalt.operation.partition.PartitionExpire;
import io.basalt.options.CompactionOptions;
import io.basalt.options.Options;
import io.basalt.options.PartitionExpiration;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Drops expired partitions after a commit when {@code partition.expiration-time} is set, at most
 * once per {@code partition.expiration-check-interval} per table in this process (the first commit
 * of a process checks). Skipped on {@code write-only} tables.
 */
public final class PartitionExpireAction implements PostCommitAction {
  /** When each table (by root path) was last checked, in this JVM. */
  private static final Map<String, Long> LAST_CHECK = new ConcurrentHashMap<>();

  /** Set while this thread drops partitions: that commit must not start another check. */
  private static final ThreadLocal<Boolean> RUNNING = ThreadLocal.withInitial(() -> false);

  @Override
  public void afterCommit(FileStoreTable table, Snapshot committed) {
    Options options = table.options();
    if (RUNNING.get() || options.get(CompactionOptions.WRITE_ONLY)) {
      return;
    }
    PartitionExpiration settings = PartitionExpiration.of(options, table.schema().partitionKeys());
    if (!settings.enabled()) {
      return;
    }
    long now = System.currentTimeMillis();
    String key = table.paths().toString();
    Long last = LAST_CHECK.get(key);
    if (last != null && now - last < settings.checkIntervalMillis()) {
      return;
    }
    LAST_CHECK.put(key, now);
    RUNNING.set(true);
    try {
      new PartitionExpire(table, settings).expire(now);
    } finally {
      RUNNING.set(false);
    }
  }
}
