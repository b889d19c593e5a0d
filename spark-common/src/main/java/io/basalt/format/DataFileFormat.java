package io.basalt.format;

import io.basalt.format.avro.AvroFileReader;
import io.basalt.format.avro.AvroFileWriter;
import io.basalt.format.orc.OrcFileReader;
import io.basalt.format.orc.OrcFileWriter;
import io.basalt.utils.CloseableIterator;
import java.util.Locale;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/**
 * The data file formats Basalt writes and reads, named as Paimon's {@code file.format} values. A
 * data file's format is its name's extension ({@code data-<uuid>-<n>.<format>}), which is how a
 * table whose {@code file.format} changed keeps reading its older files.
 */
public enum DataFileFormat {
  PARQUET("parquet"),
  ORC("orc"),
  AVRO("avro");

  private final String id;

  DataFileFormat(String id) {
    this.id = id;
  }

  /** The option value and file extension, such as {@code orc}. */
  public String id() {
    return id;
  }

  /**
   * The format named {@code value} (case-insensitive).
   *
   * @throws IllegalArgumentException naming the value and the supported formats otherwise
   */
  public static DataFileFormat of(String value) {
    for (DataFileFormat format : values()) {
      if (format.id.equalsIgnoreCase(value.trim())) {
        return format;
      }
    }
    throw new IllegalArgumentException(
        String.format(
            "Invalid value '%s' for option 'file.format': expected one of parquet, orc, avro",
            value));
  }

  /** The format of data file {@code fileName} by its extension, if it is one of these. */
  public static Optional<DataFileFormat> ofFileName(String fileName) {
    int dot = fileName.lastIndexOf('.');
    String extension = dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
    for (DataFileFormat format : values()) {
      if (format.id.equals(extension)) {
        return Optional.of(format);
      }
    }
    return Optional.empty();
  }

  /**
   * Creates {@code path} and a writer of rows of {@code fileSchema}, whose fields carry their ids.
   * The compression and overwrite settings of {@code options} apply to every format; the row-group
   * and page sizes to Parquet only.
   *
   * @throws IllegalArgumentException when the codec or a column type has no form in this format
   */
  public FormatWriter newWriter(
      Configuration conf, Path path, StructType fileSchema, ParquetWriteOptions options) {
    return switch (this) {
      case PARQUET -> new ParquetRowWriter(conf, path, fileSchema, options);
      case ORC ->
          new OrcFileWriter(conf, path, fileSchema, options.compression(), options.overwrite());
      case AVRO ->
          new AvroFileWriter(conf, path, fileSchema, options.compression(), options.overwrite());
    };
  }

  /**
   * Opens the rows of {@code path} as rows of {@code readSchema}, every row in file order, with the
   * engine's row readers. The returned row is reused between calls.
   */
  public CloseableIterator<InternalRow> openRows(
      Configuration conf, Path path, StructType readSchema) {
    return switch (this) {
      case PARQUET -> ParquetRowReader.open(conf, path, readSchema, null);
      case ORC -> OrcFileReader.open(conf, path, readSchema);
      case AVRO -> AvroFileReader.open(conf, path, readSchema);
    };
  }
}
