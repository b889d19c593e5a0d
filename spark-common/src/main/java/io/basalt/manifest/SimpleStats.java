package io.basalt.manifest;

import io.basalt.data.BinaryRow;
import io.basalt.utils.Check;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Per-column minimum, maximum and null count of a set of rows, as stored in manifests
 * (format-notes.md section 4.5). Min and max are BinaryRows whose fields may be null (unknown);
 * {@code nullCounts} elements may be null (unknown), and the list is null when no counts exist.
 */
public record SimpleStats(BinaryRow minValues, BinaryRow maxValues, @Nullable List<Long> nullCounts)
    implements java.io.Serializable {

  /** Stats that say nothing: arity-0 rows and no null counts. */
  public static final SimpleStats EMPTY =
      new SimpleStats(BinaryRow.EMPTY, BinaryRow.EMPTY, List.of());

  public SimpleStats {
    Check.notNull(minValues, "minValues");
    Check.notNull(maxValues, "maxValues");
    // null elements are meaningful (unknown count), so List.copyOf cannot be used
    nullCounts =
        nullCounts == null ? null : Collections.unmodifiableList(new ArrayList<>(nullCounts));
  }
}
