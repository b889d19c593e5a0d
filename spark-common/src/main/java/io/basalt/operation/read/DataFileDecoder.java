package io.basalt.operation.read;

import io.basalt.casting.CastedRow;
import io.basalt.format.DataFileFormat;
import io.basalt.manifest.DataFileMeta;
import io.basalt.schema.FileReadType;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import io.basalt.utils.CloseableIterator;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/** Decodes one data file in its own format and schema version, so {@link SplitRead} need not. */
final class DataFileDecoder implements Serializable {
  private static final long serialVersionUID = 1L;

  private final FileStoreTable table;
  // the row types of the older schemas files were written with, by schema id
  private transient Map<Long, StructType> olderSchemas;

  DataFileDecoder(FileStoreTable table) {
    this.table = table;
  }

  /**
   * The rows of {@code file} at {@code path} as {@code schema}, decoded by {@code opener} when the
   * file is Parquet; {@code unreadable} (null for none) decides which failures skip the file.
   */
  CloseableIterator<InternalRow> open(
      DataSplit split,
      DataFileMeta file,
      Path path,
      StructType schema,
      SplitRead.FileOpener opener,
      @Nullable UnreadableFiles unreadable) {
    // a file of an older schema is read with the types its columns had then, and converted
    StructType fileType = fileReadType(file, schema);
    CloseableIterator<InternalRow> rows;
    try {
      // the opener (maybe Spark's vectorized reader) decodes Parquet; ORC and Avro files, which a
      // table has after 'file.format' changed or when Paimon wrote them, use the engine's readers
      DataFileFormat format =
          DataFileFormat.ofFileName(file.fileName()).orElse(DataFileFormat.PARQUET);
      rows =
          format == DataFileFormat.PARQUET
              ? opener.open(table.fileIO().conf(), path, fileType)
              : format.openRows(table.fileIO().conf(), path, fileType);
    } catch (RuntimeException e) {
      if (unreadable != null && unreadable.skip(table.fileIO(), path, e)) {
        return CloseableIterator.of(List.of());
      }
      throw DataFileErrors.openFailure(table.name(), split, path, e);
    }
    if (unreadable != null) {
      rows = unreadable.tolerant(rows, table.fileIO(), path);
    }
    if (fileType != schema) {
      rows =
          CastedRow.wrap(
              rows, fileType, schema, "Data file " + path + " of table " + table.name() + ".");
    }
    return rows;
  }

  /** {@code schema} with the column types {@code file} was written with (itself if the same). */
  private StructType fileReadType(DataFileMeta file, StructType schema) {
    if (file.schemaId() == table.schema().id()) {
      return schema;
    }
    if (olderSchemas == null) {
      olderSchemas = new HashMap<>();
    }
    StructType written =
        olderSchemas.computeIfAbsent(
            file.schemaId(), id -> table.schemaManager().schema(id).rowType());
    return FileReadType.of(schema, written);
  }
}
