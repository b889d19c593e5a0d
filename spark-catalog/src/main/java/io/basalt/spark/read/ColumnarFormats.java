package io.basalt.spark.read;

import io.basalt.format.DataFileFormat;
import io.basalt.manifest.DataFileMeta;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.types.StructType;

/**
 * Whether the data files of a scan's splits can be decoded as columnar batches: Parquet files with
 * Spark's vectorized Parquet reader, ORC files with orc-core's vectorized reader ({@link
 * OrcSplitReader}), each under its own Spark settings; a table whose {@code file.format} changed
 * mixes both, and then both must agree. Avro has no columnar reader in Spark, so a scan touching an
 * Avro file reads rows.
 */
final class ColumnarFormats {
  private ColumnarFormats() {}

  /** Whether every data file of {@code splits} can be read as columnar batches of the schema. */
  static boolean columnar(FileStoreTable table, StructType dataSchema, List<DataSplit> splits) {
    Set<DataFileFormat> formats = EnumSet.noneOf(DataFileFormat.class);
    for (DataSplit split : splits) {
      for (DataFileMeta file : split.files()) {
        // files without a known extension are Parquet, the default format
        formats.add(DataFileFormat.ofFileName(file.fileName()).orElse(DataFileFormat.PARQUET));
      }
    }
    if (formats.contains(DataFileFormat.AVRO)) {
      return false;
    }
    if (formats.contains(DataFileFormat.ORC) && !OrcReadOptions.supportsColumnar(dataSchema)) {
      return false;
    }
    // with no file at all Spark's Parquet rule decides, as before ORC files were read columnar
    return !(formats.contains(DataFileFormat.PARQUET) || formats.isEmpty())
        || (VectorizedReadOptions.supportsColumnar(dataSchema)
            && !VectorizedReadOptions.readsNanosecondTimestamps(table.rowType(), dataSchema));
  }
}
