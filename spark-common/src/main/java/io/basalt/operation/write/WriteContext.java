package io.basalt.operation.write;

import io.basalt.format.DataFileFormat;
import io.basalt.format.DictionaryHints;
import io.basalt.format.ParquetWriteOptions;
import io.basalt.options.Options;
import io.basalt.options.TableOptions;
import io.basalt.options.WriteOptions;
import io.basalt.table.FileStoreTable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.types.StructType;

/** The settings every bucket writer of one write shares, derived from the table options once. */
record WriteContext(
    Configuration conf,
    StructType rowType,
    long schemaId,
    ParquetWriteOptions parquetOptions,
    DataFileFormat fileFormat,
    long targetFileSize,
    long writeBufferSize,
    boolean spillable,
    int maxSpillFiles,
    java.nio.file.Path spillDir,
    String dataFilePrefix) {

  /** The name prefix of data files before the uuid, as Paimon's {@code data-file.prefix}. */
  static final String DATA_FILE_PREFIX = "data-";

  /** A copy whose data files start with {@code prefix}. */
  WriteContext withDataFilePrefix(String prefix) {
    return new WriteContext(
        conf,
        rowType,
        schemaId,
        parquetOptions,
        fileFormat,
        targetFileSize,
        writeBufferSize,
        spillable,
        maxSpillFiles,
        spillDir,
        prefix);
  }

  /** This context for files of other columns (the row-tracking layout of rewritten files). */
  WriteContext withRowType(StructType newRowType) {
    return new WriteContext(
        conf,
        newRowType,
        schemaId,
        parquetOptions,
        fileFormat,
        targetFileSize,
        writeBufferSize,
        spillable,
        maxSpillFiles,
        spillDir,
        dataFilePrefix);
  }

  static WriteContext of(FileStoreTable table) {
    Options options = table.options();
    ParquetWriteOptions parquet =
        new ParquetWriteOptions(
            options.get(TableOptions.FILE_COMPRESSION),
            options.get(WriteOptions.PARQUET_BLOCK_SIZE),
            Math.toIntExact(options.get(WriteOptions.PARQUET_PAGE_SIZE)),
            false,
            // one write's buckets hold rows of one source: what a file learns helps the next
            new DictionaryHints());
    return new WriteContext(
        DataFileConf.of(table),
        table.rowType(),
        table.schema().id(),
        parquet,
        DataFileFormat.of(options.get(TableOptions.FILE_FORMAT)),
        options.get(WriteOptions.TARGET_FILE_SIZE),
        options.get(WriteOptions.WRITE_BUFFER_SIZE),
        options.get(WriteOptions.WRITE_BUFFER_SPILLABLE),
        options.get(WriteOptions.LOCAL_SORT_MAX_NUM_FILE_HANDLES),
        io.basalt.mergetree.SpillDirs.next(),
        DATA_FILE_PREFIX);
  }
}
