package io.basalt.blob;

import io.basalt.manifest.DataFileMeta;
import io.basalt.options.BlobOptions;
import io.basalt.options.Options;
import io.basalt.options.WriteOptions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Which columns of a table keep their values in {@code .blob} files: the BINARY,
 * ARRAY&lt;BINARY&gt; and MAP&lt;K, BINARY&gt; columns named by {@code blob-field}.
 */
public final class BlobColumns {
  private BlobColumns() {}

  /** The names of the table's columns stored in {@code .blob} files, in table order. */
  public static List<String> of(StructType rowType, Options options) {
    String value = options.getOptional(BlobOptions.BLOB_FIELD).orElse(null);
    if (value == null) {
      return List.of();
    }
    Set<String> named = new HashSet<>();
    for (String name : value.split(",")) {
      named.add(name.trim());
    }
    List<String> columns = new ArrayList<>();
    for (StructField field : rowType.fields()) {
      if (named.contains(field.name()) && BlobValueCodec.of(field.dataType()).isPresent()) {
        columns.add(field.name());
      }
    }
    return columns;
  }

  /**
   * The size at which a {@code .blob} file rolls: {@code blob.target-file-size}, else the data's.
   */
  public static long targetFileSize(Options options) {
    return options
        .getOptional(BlobOptions.BLOB_TARGET_FILE_SIZE)
        .orElse(options.get(WriteOptions.TARGET_FILE_SIZE));
  }

  /**
   * The files of one bucket ordered so each data file is followed by its blob files (those within
   * its row ids), data files by first row id; blob files whose data file is not among {@code files}
   * (a filter skipped it) are dropped. A reader and a split cut can then keep them together.
   */
  public static List<DataFileMeta> arrange(List<DataFileMeta> files) {
    TreeMap<Long, List<DataFileMeta>> byFirstRowId = new TreeMap<>();
    List<DataFileMeta> untracked = new ArrayList<>();
    for (DataFileMeta file : files) {
      if (!isBlobFile(file.fileName())) {
        if (file.firstRowId() == null) {
          untracked.add(file);
        } else {
          byFirstRowId.computeIfAbsent(file.firstRowId(), k -> new ArrayList<>()).add(file);
        }
      }
    }
    for (DataFileMeta file : files) {
      if (isBlobFile(file.fileName()) && file.firstRowId() != null) {
        var owner = byFirstRowId.floorEntry(file.firstRowId());
        DataFileMeta data = owner == null ? null : owner.getValue().get(0);
        if (data != null && file.firstRowId() < data.firstRowId() + data.rowCount()) {
          owner.getValue().add(file);
        }
      }
    }
    List<DataFileMeta> arranged = new ArrayList<>(files.size());
    for (List<DataFileMeta> group : byFirstRowId.values()) {
      DataFileMeta data = group.get(0);
      arranged.add(data);
      group.subList(1, group.size()).stream()
          .sorted(Comparator.comparingLong(DataFileMeta::firstRowId))
          .forEach(arranged::add);
    }
    arranged.addAll(untracked);
    return arranged;
  }

  /** Whether {@code fileName} is a {@code .blob} file. */
  public static boolean isBlobFile(String fileName) {
    return fileName.endsWith(".blob");
  }
}
