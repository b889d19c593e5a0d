package io.basalt.tag;

import io.basalt.snapshot.Tag;
import io.basalt.table.FileStoreTable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Deletes tags whose retention time has passed and, when asked, tags created before a point in
 * time, with the files only they kept alive. A tag without a recorded creation time counts as
 * created when its file was last modified (as Paimon does). Times are local wall-clock times in the
 * JVM's default zone, the zone creation times are written in.
 */
public final class TagExpiration {
  private final FileStoreTable table;

  public TagExpiration(FileStoreTable table) {
    this.table = table;
  }

  /**
   * Expires tags and returns their names, sorted.
   *
   * @param now the current local time
   * @param olderThan also expire tags created before this local time; null for retention only
   * @param spared tag names never expired by this call
   */
  public List<String> expire(
      LocalDateTime now, @Nullable LocalDateTime olderThan, Set<String> spared) {
    TagDeletion deletion = new TagDeletion(table);
    Map<String, Long> modified =
        olderThan == null ? Map.of() : table.tagManager().modificationTimes();
    List<String> expired = new ArrayList<>();
    for (Tag tag : table.tagManager().tagObjects()) {
      if (spared.contains(tag.name())) {
        continue;
      }
      boolean retentionOver = tag.expiresAt().map(now::isAfter).orElse(false);
      LocalDateTime created = tag.createTime();
      if (created == null && modified.containsKey(tag.name())) {
        created =
            LocalDateTime.ofInstant(
                Instant.ofEpochMilli(modified.get(tag.name())), ZoneId.systemDefault());
      }
      boolean tooOld = olderThan != null && created != null && created.isBefore(olderThan);
      if (retentionOver || tooOld) {
        deletion.delete(tag.name());
        expired.add(tag.name());
      }
    }
    return expired;
  }
}
