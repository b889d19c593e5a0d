package io.basalt.format;

import io.basalt.BasaltException;
import io.basalt.options.Options;
import io.basalt.options.TableOptions;
import java.util.Locale;

/**
 * The file formats Basalt reads: Parquet, ORC and Avro data files ({@link DataFileFormat}) and Avro
 * or Parquet manifests ({@link ManifestFormat}). Paimon can also write ORC manifests and
 * CSV/JSON/Lance data files; a table using them is refused before any file is opened, with a
 * message naming the option, instead of failing deep inside a reader.
 */
public final class FileFormats {
  private FileFormats() {}

  /** The default data-file format. */
  public static final String DATA_FORMAT = "parquet";

  /**
   * Checks that the formats {@code options} declare are ones Basalt reads.
   *
   * @throws BasaltException naming the option, its value and what Basalt supports otherwise
   */
  public static void checkReadable(Options options, String table) {
    String format = options.raw(TableOptions.FILE_FORMAT.key()).orElse(DATA_FORMAT);
    try {
      DataFileFormat.of(format);
    } catch (IllegalArgumentException e) {
      throw new BasaltException(
          String.format(
              "Table %s has '%s' = '%s'; Basalt reads and writes parquet, orc and avro data"
                  + " files. Fix: copy the rows with Paimon into a table created with '%s' ="
                  + " 'parquet', or read this table with Paimon.",
              table, TableOptions.FILE_FORMAT.key(), format.trim(), TableOptions.FILE_FORMAT.key()),
          e);
    }
    ManifestFormat.of(options, table);
  }

  /**
   * Checks that data file {@code fileName} of {@code table} is in a format Basalt reads, by its
   * extension as Paimon names it ({@code data-<uuid>-<n>.<format>}).
   *
   * @throws BasaltException naming the file, its format and option 'file.format' otherwise
   */
  public static void checkDataFile(String fileName, String table) {
    int dot = fileName.lastIndexOf('.');
    String extension = dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
    if (DataFileFormat.ofFileName(fileName).isPresent() || !isPaimonFormat(extension)) {
      return;
    }
    throw new BasaltException(
        String.format(
            "Data file %s of table %s is in format '%s' (Paimon's option '%s'); Basalt reads only"
                + " parquet, orc and avro data files (%s is the default). Fix: copy the rows with Paimon into a table created with '%s' ="
                + " '%s', or read this table with Paimon.",
            fileName,
            table,
            extension,
            TableOptions.FILE_FORMAT.key(),
            DATA_FORMAT,
            TableOptions.FILE_FORMAT.key(),
            DATA_FORMAT));
  }

  private static boolean isPaimonFormat(String extension) {
    return switch (extension) {
      case "orc", "avro", "csv", "json", "lance", "blob" -> true;
      default -> false;
    };
  }
}
