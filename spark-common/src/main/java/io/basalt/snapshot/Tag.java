package io.basalt.snapshot;

import io.basalt.utils.Check;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * A tag as stored in {@code tag/tag-<name>}: the tagged snapshot plus, for tags created with a
 * retention time, when it was created and how long it is kept (Paimon's {@code tagCreateTime} and
 * {@code tagTimeRetained}, format-notes.md section 3).
 *
 * @param createTime local wall-clock time of creation (the writer's default time zone, as Paimon
 *     writes it), or null
 * @param timeRetained how long after {@code createTime} the tag expires, or null for never
 */
public record Tag(
    String name,
    Snapshot snapshot,
    @Nullable LocalDateTime createTime,
    @Nullable Duration timeRetained) {

  public Tag {
    Check.notNull(name, "name");
    Check.notNull(snapshot, "snapshot");
  }

  /** When the tag's retention ends, if it has one. */
  public Optional<LocalDateTime> expiresAt() {
    return createTime == null || timeRetained == null
        ? Optional.empty()
        : Optional.of(createTime.plus(timeRetained));
  }
}
