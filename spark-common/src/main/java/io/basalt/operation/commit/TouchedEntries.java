package io.basalt.operation.commit;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.ValueComparators;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.manifest.SimpleStats;
import io.basalt.operation.scan.LiveFiles;
import io.basalt.snapshot.Snapshot;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * Reads the live files of a few partitions of a snapshot, opening only the manifests whose
 * partition statistics may hold one of them: what a commit checks costs what it touches, not the
 * table.
 */
final class TouchedEntries {
  private final ManifestFiles manifests;
  private final String tableName;
  private final BinaryRowCodec codec;
  private final DataType[] types;
  private final List<Comparator<Object>> comparators = new ArrayList<>();

  TouchedEntries(ManifestFiles manifests, StructType partitionType, String tableName) {
    this.manifests = manifests;
    this.tableName = tableName;
    this.codec = new BinaryRowCodec(partitionType);
    this.types = new DataType[partitionType.size()];
    for (int i = 0; i < types.length; i++) {
      types[i] = partitionType.fields()[i].dataType();
      comparators.add(
          ValueComparators.isOrderable(types[i]) ? ValueComparators.forType(types[i]) : null);
    }
  }

  /** The live files of {@code partitions} in {@code snapshot}, as ADD entries. */
  List<ManifestEntry> live(Snapshot snapshot, Set<BinaryRow> partitions) {
    LiveFiles live = new LiveFiles("snapshot " + snapshot.id() + " of table " + tableName);
    forEachEntry(snapshot, partitions, live::apply);
    return live.entries();
  }

  /** The files that an ADD or DELETE entry of {@code snapshot} names in {@code partitions}. */
  Set<ManifestEntry.FileIdentifier> mentioned(Snapshot snapshot, Set<BinaryRow> partitions) {
    Set<ManifestEntry.FileIdentifier> files = new HashSet<>();
    forEachEntry(snapshot, partitions, entry -> files.add(entry.identifier()));
    return files;
  }

  private void forEachEntry(
      Snapshot snapshot, Set<BinaryRow> partitions, Consumer<ManifestEntry> action) {
    if (partitions.isEmpty()) {
      return;
    }
    List<InternalRow> rows = new ArrayList<>();
    for (BinaryRow partition : partitions) {
      rows.add(codec.toRow(partition));
    }
    List<ManifestFileMeta> metas =
        new ArrayList<>(manifests.readManifestList(snapshot.baseManifestList()));
    metas.addAll(manifests.readManifestList(snapshot.deltaManifestList()));
    for (ManifestFileMeta meta : metas) {
      if (!mayHoldAny(meta.partitionStats(), rows)) {
        continue;
      }
      try (CloseableIterator<ManifestEntry> it = manifests.readManifest(meta.fileName())) {
        while (it.hasNext()) {
          ManifestEntry entry = it.next();
          if (partitions.contains(entry.partition())) {
            action.accept(entry);
          }
        }
      }
    }
  }

  private boolean mayHoldAny(SimpleStats stats, List<InternalRow> partitions) {
    if (types.length == 0
        || stats.minValues().arity() != types.length
        || stats.maxValues().arity() != types.length) {
      return true;
    }
    InternalRow min = codec.toRow(stats.minValues());
    InternalRow max = codec.toRow(stats.maxValues());
    for (InternalRow partition : partitions) {
      if (mayHold(min, max, partition)) {
        return true;
      }
    }
    return false;
  }

  private boolean mayHold(InternalRow min, InternalRow max, InternalRow partition) {
    for (int i = 0; i < types.length; i++) {
      Comparator<Object> order = comparators.get(i);
      if (order == null || partition.isNullAt(i) || min.isNullAt(i) || max.isNullAt(i)) {
        continue; // no usable bound: the manifest may hold it
      }
      Object value = partition.get(i, types[i]);
      if (order.compare(value, min.get(i, types[i])) < 0
          || order.compare(value, max.get(i, types[i])) > 0) {
        return false;
      }
    }
    return true;
  }
}
