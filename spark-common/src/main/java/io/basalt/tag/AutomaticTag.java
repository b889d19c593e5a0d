package io.basalt.tag;

import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A tag whose name is an automatic tag name of the table's settings, with the period it stands for.
 * Tags created by hand with such a name count too, as in Paimon.
 */
record AutomaticTag(String name, Snapshot snapshot, LocalDateTime periodStart) {

  /** The table's automatic tags, oldest first (by snapshot, then period). */
  static List<AutomaticTag> list(FileStoreTable table, TagSettings settings) {
    List<AutomaticTag> tags = new ArrayList<>();
    for (Map.Entry<String, Snapshot> tag : table.tagManager().tags().entrySet()) {
      Optional<LocalDateTime> period = settings.periodOf(tag.getKey());
      period.ifPresent(start -> tags.add(new AutomaticTag(tag.getKey(), tag.getValue(), start)));
    }
    tags.sort(
        Comparator.comparingLong((AutomaticTag t) -> t.snapshot().id())
            .thenComparing(AutomaticTag::periodStart));
    return tags;
  }
}
