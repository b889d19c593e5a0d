package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.manifest.ManifestEntry;
import io.basalt.predicate.Leaf;
import io.basalt.predicate.Predicate;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * The partitions of a table as Spark's partition commands see them. As in Paimon, a partition
 * exists while the latest snapshot has a live file in it: listing reads the manifests (pruned by
 * the requested values), dropping or truncating commits one OVERWRITE snapshot that deletes the
 * partitions' files, and adding a partition records nothing, since a file system warehouse keeps no
 * partition list of its own.
 */
final class TablePartitions {
  // the keys of Paimon's PartitionStatistics, which its loadPartitionMetadata returns
  static final String RECORD_COUNT = "recordCount";
  static final String FILE_SIZE_IN_BYTES = "fileSizeInBytes";
  static final String FILE_COUNT = "fileCount";
  static final String LAST_FILE_CREATION_TIME = "lastFileCreationTime";

  private final FileStoreTable table;
  private final StructType partitionType;
  private final BinaryRowCodec codec;

  TablePartitions(FileStoreTable table) {
    this.table = table;
    this.partitionType = table.partitionType();
    this.codec = new BinaryRowCodec(partitionType);
  }

  /**
   * The partitions whose columns {@code names} have the values of {@code ident} (all partitions for
   * no names), as rows of every partition column.
   */
  InternalRow[] list(String[] names, InternalRow ident) {
    int[] positions = positions(names, ident);
    List<InternalRow> matching = new ArrayList<>();
    for (BinaryRow partition : livePartitions(filter(names, positions, ident))) {
      InternalRow row = codec.toRow(partition);
      if (matches(row, positions, ident)) {
        matching.add(row);
      }
    }
    return matching.toArray(new InternalRow[0]);
  }

  boolean exists(InternalRow ident) {
    checkComplete(ident);
    return list(partitionType.fieldNames(), ident).length > 0;
  }

  /** Paimon's statistics of one partition: records, bytes, files, last file creation time. */
  Map<String, String> metadata(InternalRow ident) {
    checkComplete(ident);
    BinaryRow partition = codec.toBinary(ident);
    long records = 0;
    long bytes = 0;
    long files = 0;
    long lastCreation = Long.MIN_VALUE;
    for (ManifestEntry entry : liveEntries(filter(partitionType.fieldNames(), all(), ident))) {
      if (entry.partition().equals(partition)) {
        records += entry.file().rowCount();
        bytes += entry.file().fileSize();
        files++;
        Long created = entry.file().creationTimeMillis();
        lastCreation = created == null ? lastCreation : Math.max(lastCreation, created);
      }
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    if (files > 0) {
      metadata.put(RECORD_COUNT, Long.toString(records));
      metadata.put(FILE_SIZE_IN_BYTES, Long.toString(bytes));
      metadata.put(FILE_COUNT, Long.toString(files));
      metadata.put(
          LAST_FILE_CREATION_TIME,
          Long.toString(lastCreation == Long.MIN_VALUE ? 0 : lastCreation));
    }
    return metadata;
  }

  /**
   * {@code ADD PARTITION}: checks the values and records nothing, as Paimon's connector does over a
   * file system catalog; the partition appears when rows are written to it. A LOCATION is refused,
   * since a partition's files always live under the table's directory.
   */
  void create(InternalRow[] idents, Map<String, String>[] properties) {
    for (int i = 0; i < idents.length; i++) {
      checkComplete(idents[i]);
      String location = properties == null ? null : properties[i].get("location");
      if (location != null) {
        throw new BasaltException(
            String.format(
                "Table %s: ADD PARTITION ... LOCATION '%s' is not supported; a partition's files"
                    + " always live under the table's directory. Remove the LOCATION clause.",
                table.name(), location));
      }
    }
  }

  /** Drops the files of {@code idents} in one OVERWRITE snapshot; false when none holds a file. */
  boolean drop(InternalRow[] idents) {
    Set<BinaryRow> partitions = new LinkedHashSet<>();
    for (InternalRow ident : idents) {
      checkComplete(ident);
      partitions.add(codec.toBinary(ident));
    }
    table.checkWritable();
    return table
        .newCommit(UUID.randomUUID().toString())
        .dropPartitionValues(partitions, Snapshot.BATCH_COMMIT_IDENTIFIER)
        .isPresent();
  }

  UnsupportedOperationException noPartitionMetadata() {
    return new UnsupportedOperationException(
        String.format(
            "Table %s: partitions have no properties of their own; set table options with ALTER"
                + " TABLE %s SET TBLPROPERTIES instead.",
            table.name(), table.name()));
  }

  private void checkComplete(InternalRow ident) {
    if (ident.numFields() != partitionType.size()) {
      throw new BasaltException(
          String.format(
              "Table %s: the partition spec gives %d of the partition columns %s; name every"
                  + " partition column, or remove the rows of several partitions with DELETE FROM"
                  + " %s WHERE <condition on partition columns>.",
              table.name(),
              ident.numFields(),
              Arrays.toString(partitionType.fieldNames()),
              table.name()));
    }
  }

  /** The position in the partition type of each of {@code names}. */
  private int[] positions(String[] names, InternalRow ident) {
    if (names.length != ident.numFields()) {
      throw new BasaltException(
          String.format(
              "Table %s: the partition spec names %d columns %s but gives %d values.",
              table.name(), names.length, Arrays.toString(names), ident.numFields()));
    }
    List<String> columns = Arrays.asList(partitionType.fieldNames());
    int[] positions = new int[names.length];
    for (int i = 0; i < names.length; i++) {
      positions[i] = columns.indexOf(names[i]);
      if (positions[i] < 0) {
        throw new BasaltException(
            String.format(
                "Table %s has no partition column '%s'; its partition columns are %s.",
                table.name(), names[i], columns));
      }
    }
    return positions;
  }

  private int[] all() {
    int[] positions = new int[partitionType.size()];
    Arrays.setAll(positions, i -> i);
    return positions;
  }

  /** Equalities on the named columns, so that planning skips manifests of other partitions. */
  private Predicate filter(String[] names, int[] positions, InternalRow ident) {
    List<Predicate> leaves = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      DataType type = partitionType.fields()[positions[i]].dataType();
      if (type instanceof BinaryType) {
        continue; // matched exactly after reading; statistics do not order bytes the same way
      }
      leaves.add(
          ident.isNullAt(i)
              ? new Leaf(names[i], type, Leaf.Op.IS_NULL, List.of())
              : new Leaf(names[i], type, Leaf.Op.EQ, List.of(ident.get(i, type))));
    }
    return leaves.isEmpty() ? null : Predicate.and(leaves);
  }

  private boolean matches(InternalRow row, int[] positions, InternalRow ident) {
    for (int i = 0; i < positions.length; i++) {
      DataType type = partitionType.fields()[positions[i]].dataType();
      Object actual = row.isNullAt(positions[i]) ? null : row.get(positions[i], type);
      Object wanted = ident.isNullAt(i) ? null : ident.get(i, type);
      boolean equal =
          actual instanceof byte[] a && wanted instanceof byte[] b
              ? Arrays.equals(a, b)
              : Objects.equals(actual, wanted);
      if (!equal) {
        return false;
      }
    }
    return true;
  }

  private Set<BinaryRow> livePartitions(Predicate filter) {
    Set<BinaryRow> partitions = new LinkedHashSet<>();
    for (ManifestEntry entry : liveEntries(filter)) {
      partitions.add(entry.partition());
    }
    return partitions;
  }

  private List<ManifestEntry> liveEntries(Predicate filter) {
    Optional<Snapshot> latest = table.latestSnapshot();
    return latest.isEmpty()
        ? List.of()
        : table.newScan().withFilter(filter).liveEntries(latest.get());
  }
}
