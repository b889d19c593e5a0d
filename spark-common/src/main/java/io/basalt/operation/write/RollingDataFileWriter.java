package io.basalt.operation.write;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.data.RowKind;
import io.basalt.format.DataFileFormat;
import io.basalt.format.FormatWriter;
import io.basalt.format.ParquetWriteOptions;
import io.basalt.format.WrittenFile;
import io.basalt.fs.TablePaths;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.SimpleStats;
import io.basalt.mergetree.KeyValueLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Writes rows of one bucket into data files of one level, starting a new file at the target size,
 * and describes each finished file as a {@link DataFileMeta}. One file writer (of the table's
 * {@code file.format}) is open at a time.
 *
 * <p>For key-value files the first and last rows give the min and max key, so rows must arrive
 * sorted; the key of the last row is encoded as it is written, so rows may be reused.
 */
public final class RollingDataFileWriter {
  private static final int SIZE_CHECK_INTERVAL = 1000;
  static final String DATA_PREFIX = "data-";
  static final String CHANGELOG_PREFIX = "changelog-";

  private final Configuration conf;
  private final Path bucketDir;
  private final String filePrefix;
  private final StructType fileSchema;
  private final ParquetWriteOptions writeOptions;
  private final DataFileFormat format;
  private final long targetFileSize;
  private final long schemaId;
  private final int level;
  @Nullable private final KeyValueLayout layout;
  @Nullable private final BinaryRowCodec keyCodec;
  private final int fileSource;
  @Nullable private final StatsConverter keyStats;
  private final StatsConverter valueStats;
  private final List<DataFileMeta> written = new ArrayList<>();
  private final List<Path> writtenPaths = new ArrayList<>();

  private FormatWriter writer;
  private Path path;
  private String fileName;
  private int fileCounter;
  private BinaryRow minKey;
  // the last row's key, encoded in keyCodec's reused buffer; -1 when no row was written since open
  private int lastKeyLength = -1;
  private long minSequence;
  private long maxSequence;
  private long deleteRows;
  private long nextAppendSequence;

  RollingDataFileWriter(
      WriteContext context,
      Path bucketDir,
      int level,
      @Nullable KeyValueLayout layout,
      long firstSequence) {
    this(context, bucketDir, level, layout, firstSequence, DataFileMeta.SOURCE_APPEND);
  }

  RollingDataFileWriter(
      WriteContext context,
      Path bucketDir,
      int level,
      @Nullable KeyValueLayout layout,
      long firstSequence,
      int fileSource) {
    this(context, bucketDir, level, layout, firstSequence, fileSource, context.dataFilePrefix());
  }

  /**
   * @param prefix the file name prefix: {@value #DATA_PREFIX} for data files, {@value
   *     #CHANGELOG_PREFIX} for changelog files
   */
  RollingDataFileWriter(
      WriteContext context,
      Path bucketDir,
      int level,
      @Nullable KeyValueLayout layout,
      long firstSequence,
      int fileSource,
      String prefix) {
    this.fileSource = fileSource;
    this.conf = context.conf();
    this.bucketDir = bucketDir;
    // a fresh uuid per writer: file names are unique across buckets, not just within one
    this.filePrefix = TablePaths.newFilePrefix(prefix);
    this.fileSchema = layout == null ? context.rowType() : layout.fileSchema();
    this.writeOptions = context.parquetOptions();
    this.format = context.fileFormat();
    this.targetFileSize = context.targetFileSize();
    this.schemaId = context.schemaId();
    this.level = level;
    this.layout = layout;
    this.nextAppendSequence = firstSequence;
    if (layout != null) {
      // the key columns lead the file row, and the codec encodes a row's first fields: no
      // projection (whose generated code cost about a millisecond per writer) and no copy per row
      StructType keyType = slice(fileSchema, 0, layout.keyArity());
      this.keyCodec = new BinaryRowCodec(keyType);
      this.keyStats = new StatsConverter(keyType, 0, false);
      this.valueStats =
          new StatsConverter(
              slice(fileSchema, layout.valueOffset(), fileSchema.size()),
              layout.valueOffset(),
              true);
    } else {
      this.keyCodec = null;
      this.keyStats = null;
      this.valueStats = new StatsConverter(fileSchema, 0, true);
    }
  }

  private static StructType slice(StructType type, int from, int to) {
    StructField[] fields = new StructField[to - from];
    System.arraycopy(type.fields(), from, fields, 0, fields.length);
    return new StructType(fields);
  }

  /** Writes one row in the file layout. */
  void write(InternalRow row) {
    if (writer == null) {
      open(row);
    }
    writer.write(row);
    if (layout != null) {
      long sequence = row.getLong(layout.sequenceIndex());
      minSequence = Math.min(minSequence, sequence);
      maxSequence = Math.max(maxSequence, sequence);
      if (!RowKind.isAdd(row.getByte(layout.kindIndex()))) {
        deleteRows++;
      }
      lastKeyLength = keyCodec.encodeReused(row);
    } else {
      maxSequence = nextAppendSequence++;
    }
    if (writer.rowCount() % SIZE_CHECK_INTERVAL == 0 && writer.estimatedSize() >= targetFileSize) {
      finishFile();
    }
  }

  /** The files finished so far, in order (a live view). */
  List<DataFileMeta> finishedFiles() {
    return java.util.Collections.unmodifiableList(written);
  }

  /** The next sequence number of an append writer. */
  long nextAppendSequence() {
    return nextAppendSequence;
  }

  /** Closes the open file, if any, and returns every file written so far. */
  List<DataFileMeta> finish() {
    if (writer != null) {
      finishFile();
    }
    return List.copyOf(written);
  }

  /** Closes and deletes everything this writer wrote (an aborted write). */
  void abort() {
    RuntimeException closeFailure = null;
    if (writer != null) {
      try {
        writer.abort();
      } catch (RuntimeException e) {
        closeFailure = e; // reported after the files are gone
      }
      writer = null;
      writtenPaths.add(path);
    }
    for (Path file : writtenPaths) {
      try {
        file.getFileSystem(conf).delete(file, false);
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to delete aborted data file " + file, e);
      }
    }
    if (closeFailure != null) {
      throw closeFailure;
    }
  }

  private void open(InternalRow first) {
    fileName = filePrefix + (fileCounter++) + "." + format.id();
    path = new Path(bucketDir, fileName);
    writer = format.newWriter(conf, path, fileSchema, writeOptions);
    deleteRows = 0;
    if (layout != null) {
      minKey = keyCodec.toBinary(first);
      minSequence = Long.MAX_VALUE;
      maxSequence = Long.MIN_VALUE;
    } else {
      minKey = BinaryRow.EMPTY;
      minSequence = nextAppendSequence;
    }
  }

  private void finishFile() {
    WrittenFile file = writer.finish();
    writer = null;
    writtenPaths.add(path);
    BinaryRow maxKey =
        layout == null
            ? BinaryRow.EMPTY
            : new BinaryRow(keyCodec.arity(), Arrays.copyOf(keyCodec.reusedBytes(), lastKeyLength));
    SimpleStats keys = keyStats == null ? SimpleStats.EMPTY : keyStats.convert(file.stats());
    written.add(
        DataFileMeta.newFile(
            fileName,
            file.fileSize(),
            file.rowCount(),
            minKey,
            maxKey,
            keys,
            valueStats.convert(file.stats()),
            minSequence,
            maxSequence,
            schemaId,
            level,
            deleteRows,
            fileSource,
            valueStats.statsColumns()));
    lastKeyLength = -1;
  }
}
