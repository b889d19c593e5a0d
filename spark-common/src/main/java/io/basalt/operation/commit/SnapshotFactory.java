package io.basalt.operation.commit;

import io.basalt.BasaltException;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.rowtracking.RowIdAssignment;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.CommitKind;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.annotation.Nullable;

/**
 * Builds the next snapshot value. Time travel and expiration assume snapshot times never decrease,
 * and readers assume schema ids never go backwards, so neither may fall below the previous
 * snapshot's, whatever the local clock or the writer's schema says.
 */
final class SnapshotFactory {
  private final FileStoreTable table;
  private final String commitUser;
  private final LongSupplier clock;
  @Nullable private final Long endInputWatermark;

  SnapshotFactory(
      FileStoreTable table,
      String commitUser,
      LongSupplier clock,
      @Nullable Long endInputWatermark) {
    this.table = table;
    this.commitUser = commitUser;
    this.clock = clock;
    this.endInputWatermark = endInputWatermark;
  }

  /**
   * The schema id the next snapshot records: the writer's, or the latest snapshot's when that is
   * newer and has the same columns (only options changed).
   *
   * @throws BasaltException when a newer schema changed the columns this write was made for
   */
  long schemaId(@Nullable Snapshot latest) {
    long own = table.schema().id();
    if (latest == null || latest.schemaId() <= own) {
      return own;
    }
    TableSchema newer = table.schemaManager().schema(latest.schemaId());
    if (!newer.fields().equals(table.schema().fields())) {
      throw new BasaltException(
          String.format(
              "The columns of table %s changed (schema %s to schema %s, committed in snapshot %s)"
                  + " while this write ran; nothing was committed. Fix: run the write again.",
              table.name(), own, newer.id(), latest.id()));
    }
    return latest.schemaId();
  }

  Snapshot next(
      CommitKind kind,
      long identifier,
      @Nullable Snapshot latest,
      List<ManifestEntry> delta,
      ManifestWriting.Lists lists,
      @Nullable Map<String, String> properties,
      @Nullable String indexManifest,
      long changelogRecords) {
    long deltaRecords = 0;
    for (ManifestEntry entry : delta) {
      long rows = entry.file().rowCount();
      deltaRecords += entry.kind() == FileKind.ADD ? rows : -rows;
    }
    long previousTotal =
        latest == null || latest.totalRecordCount() == null ? 0 : latest.totalRecordCount();
    long schemaId = schemaId(latest);
    long now = clock.getAsLong();
    return new Snapshot(
        Snapshot.CURRENT_VERSION,
        latest == null ? 1 : latest.id() + 1,
        schemaId,
        lists.base().fileName(),
        lists.base().fileSize(),
        lists.delta().fileName(),
        lists.delta().fileSize(),
        lists.changelog() == null ? null : lists.changelog().fileName(),
        lists.changelog() == null ? null : lists.changelog().fileSize(),
        indexManifest,
        commitUser,
        identifier,
        kind,
        latest == null ? now : Math.max(now, latest.timeMillis()),
        Map.of(),
        previousTotal + deltaRecords,
        deltaRecords,
        changelogRecords,
        watermark(latest),
        latest != null && latest.schemaId() == schemaId ? latest.statistics() : null,
        properties,
        RowIdAssignment.nextRowId(delta, latest));
  }

  /** The larger of the write's {@code end-input.watermark} and the previous watermark. */
  @Nullable
  private Long watermark(@Nullable Snapshot latest) {
    Long previous = latest == null ? null : latest.watermark();
    if (endInputWatermark == null) {
      return previous;
    }
    return previous == null ? endInputWatermark : Math.max(previous, endInputWatermark);
  }
}
