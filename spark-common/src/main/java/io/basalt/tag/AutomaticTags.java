package io.basalt.tag;

import io.basalt.operation.maintenance.PostCommitAction;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;

/**
 * The post-commit tag maintenance: creates automatic tags ({@code tag.automatic-creation}), deletes
 * the oldest automatic tags beyond {@code tag.num-retained-max}, and deletes tags whose retention
 * time passed. The newest automatic tag is never expired here, because automatic creation resumes
 * from it; {@code sys.expire_tags} can still remove it.
 */
public final class AutomaticTags implements PostCommitAction {

  @Override
  public void afterCommit(FileStoreTable table, Snapshot committed) {
    TagSettings settings = TagSettings.of(table.options());
    Set<String> spared = Set.of();
    if (settings.createsTags()) {
      if (!settings.batchMode()) {
        new PeriodicTagCreation(table, settings).run();
      } else if (committed.commitIdentifier() == Snapshot.BATCH_COMMIT_IDENTIFIER) {
        new BatchTagCreation(table, settings).run(committed);
      }
      List<AutomaticTag> automatic = AutomaticTag.list(table, settings);
      automatic = dropBeyondMax(table, settings, automatic);
      if (!automatic.isEmpty()) {
        spared = Set.of(automatic.get(automatic.size() - 1).name());
      }
    }
    new TagExpiration(table).expire(LocalDateTime.now(), null, spared);
  }

  /** Deletes the oldest automatic tags beyond the maximum; returns the ones kept. */
  private static List<AutomaticTag> dropBeyondMax(
      FileStoreTable table, TagSettings settings, List<AutomaticTag> automatic) {
    Integer max = settings.numRetainedMax();
    if (max == null || automatic.size() <= max) {
      return automatic;
    }
    int excess = automatic.size() - max;
    TagDeletion deletion = new TagDeletion(table);
    for (AutomaticTag tag : automatic.subList(0, excess)) {
      deletion.delete(tag.name());
    }
    return automatic.subList(excess, automatic.size());
  }
}
