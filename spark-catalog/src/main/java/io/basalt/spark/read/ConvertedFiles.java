package io.basalt.spark.read;

import io.basalt.manifest.DataFileMeta;
import io.basalt.schema.FileReadType;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.StructType;

/**
 * Finds the splits holding files whose column types changed since they were written beyond what
 * Spark's vectorized Parquet reader up-casts by itself (widenings): such a scan reads rows, where
 * the engine converts the old values (BIGINT to DOUBLE, INT to STRING, ...).
 */
final class ConvertedFiles {
  private ConvertedFiles() {}

  /** Whether a file of {@code splits} needs a conversion other than a widening. */
  static boolean any(FileStoreTable table, StructType readType, List<DataSplit> splits) {
    Map<Long, Boolean> bySchema = new HashMap<>();
    long current = table.schema().id();
    for (DataSplit split : splits) {
      for (DataFileMeta file : split.files()) {
        if (file.schemaId() != current
            && bySchema.computeIfAbsent(file.schemaId(), id -> converts(table, readType, id))) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean converts(FileStoreTable table, StructType readType, long schemaId) {
    StructType fileType =
        FileReadType.of(readType, table.schemaManager().schema(schemaId).rowType());
    return !FileReadType.onlyWidened(fileType, readType);
  }
}
