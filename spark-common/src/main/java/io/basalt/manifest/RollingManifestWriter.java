package io.basalt.manifest;

import io.basalt.data.BinaryRowCodec;
import io.basalt.data.ValueComparators;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * Writes manifest entries into manifest files, starting a new file at the target size, and computes
 * each file's summary row for the manifest list: counts, partition stats, bucket and level ranges.
 */
public final class RollingManifestWriter implements Closeable {
  private final ManifestFiles files;
  private final long schemaId;
  private final BinaryRowCodec partitionCodec;
  private final DataType[] partitionTypes;
  private final List<Comparator<Object>> comparators = new ArrayList<>();
  private final List<ManifestFileMeta> written = new ArrayList<>();

  private SizedRowWriter<ManifestEntry> writer;
  private Path path;
  private String name;
  private long added;
  private long deleted;
  private Object[] minPartition;
  private Object[] maxPartition;
  private long[] partitionNulls;
  private int minBucket;
  private int maxBucket;
  private int minLevel;
  private int maxLevel;

  RollingManifestWriter(ManifestFiles files, long schemaId) {
    this.files = files;
    this.schemaId = schemaId;
    StructType partitionType = files.partitionType();
    this.partitionCodec = new BinaryRowCodec(partitionType);
    this.partitionTypes = new DataType[partitionType.size()];
    for (int i = 0; i < partitionTypes.length; i++) {
      partitionTypes[i] = partitionType.fields()[i].dataType();
      comparators.add(ValueComparators.forType(partitionTypes[i]));
    }
  }

  /** Appends {@code entry}, rolling to a new file when the current one is large enough. */
  public void write(ManifestEntry entry) {
    try {
      if (writer == null) {
        open();
      }
      writer.write(entry);
      track(entry);
      // bytes reach the file a compressed block (Avro) or row group (Parquet) at a time, so a
      // file ends at most one block past the target; the file system is never asked about a file
      // still being written
      if (writer.size() >= files.targetFileSize()) {
        finish();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write manifest " + path, e);
    }
  }

  /** Closes the current file and returns every manifest written. */
  public List<ManifestFileMeta> result() {
    close();
    return List.copyOf(written);
  }

  /** The manifests written so far, for cleanup after a failure. */
  public List<String> writtenNames() {
    List<String> names = new ArrayList<>();
    for (ManifestFileMeta meta : written) {
      names.add(meta.fileName());
    }
    if (name != null) {
      names.add(name);
    }
    return names;
  }

  @Override
  public void close() {
    if (writer != null) {
      try {
        finish();
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to close manifest " + path, e);
      }
    }
  }

  private void open() throws IOException {
    name = files.newManifestName();
    path = files.paths().manifestFile(name);
    writer = files.create(path, ManifestEntryCodec.CODEC, name);
    added = 0;
    deleted = 0;
    minPartition = null;
    maxPartition = null;
    partitionNulls = new long[partitionTypes.length];
    minBucket = Integer.MAX_VALUE;
    maxBucket = Integer.MIN_VALUE;
    minLevel = Integer.MAX_VALUE;
    maxLevel = Integer.MIN_VALUE;
  }

  private void track(ManifestEntry entry) {
    if (entry.kind() == FileKind.ADD) {
      added++;
    } else {
      deleted++;
    }
    minBucket = Math.min(minBucket, entry.bucket());
    maxBucket = Math.max(maxBucket, entry.bucket());
    minLevel = Math.min(minLevel, entry.file().level());
    maxLevel = Math.max(maxLevel, entry.file().level());
    if (partitionTypes.length == 0) {
      return;
    }
    InternalRow partition = partitionCodec.toRow(entry.partition());
    if (minPartition == null) {
      minPartition = new Object[partitionTypes.length];
      maxPartition = new Object[partitionTypes.length];
    }
    for (int i = 0; i < partitionTypes.length; i++) {
      if (partition.isNullAt(i)) {
        partitionNulls[i]++;
        continue;
      }
      Object value = partition.get(i, partitionTypes[i]);
      if (minPartition[i] == null || comparators.get(i).compare(value, minPartition[i]) < 0) {
        minPartition[i] = value;
      }
      if (maxPartition[i] == null || comparators.get(i).compare(value, maxPartition[i]) > 0) {
        maxPartition[i] = value;
      }
    }
  }

  private void finish() throws IOException {
    long count = writer.count();
    writer.close();
    long size = writer.size();
    writer = null;
    SimpleStats partitionStats = partitionStats();
    written.add(
        new ManifestFileMeta(
            name,
            size,
            added,
            deleted,
            partitionStats,
            schemaId,
            count == 0 ? null : minBucket,
            count == 0 ? null : maxBucket,
            count == 0 ? null : minLevel,
            count == 0 ? null : maxLevel));
    name = null;
  }

  private SimpleStats partitionStats() {
    if (partitionTypes.length == 0) {
      return SimpleStats.EMPTY;
    }
    Object[] min = minPartition == null ? new Object[partitionTypes.length] : minPartition;
    Object[] max = maxPartition == null ? new Object[partitionTypes.length] : maxPartition;
    List<Long> nulls = new ArrayList<>();
    for (long n : partitionNulls) {
      nulls.add(n);
    }
    return new SimpleStats(
        partitionCodec.toBinary(new GenericInternalRow(min)),
        partitionCodec.toBinary(new GenericInternalRow(max)),
        nulls);
  }
}
