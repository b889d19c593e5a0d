package io.basalt.tag;

import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.Tag;
import io.basalt.snapshot.TagManager;
import io.basalt.table.FileStoreTable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;

/**
 * Creates the tags of mode {@code batch}: each batch commit tags its snapshot as {@code
 * batch-write-<period of the commit time>} (Paimon's {@code batch-write-2024-12-04} with the
 * default daily period), replacing the tag an earlier commit of the same period created.
 */
final class BatchTagCreation {
  private final FileStoreTable table;
  private final TagSettings settings;

  BatchTagCreation(FileStoreTable table, TagSettings settings) {
    this.table = table;
    this.settings = settings;
  }

  void run(Snapshot committed) {
    LocalDateTime time =
        LocalDateTime.ofInstant(
            Instant.ofEpochMilli(committed.timeMillis()), ZoneId.systemDefault());
    String name = settings.tagName(settings.period().periodStart(time));
    TagManager tags = table.tagManager();
    if (!tags.exists(name)) {
      tags.create(name, committed, settings.defaultTimeRetained());
      return;
    }
    Tag previous = tags.replace(name, committed, settings.defaultTimeRetained());
    if (!TagDeletion.sameSnapshot(previous.snapshot(), committed)) {
      new TagDeletion(table).deleteUnreferencedFiles(previous.snapshot());
    }
  }
}
