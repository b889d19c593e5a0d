package io.basalt.format;

import io.basalt.BasaltException;
import io.basalt.options.ManifestOptions;
import io.basalt.options.Options;
import java.util.Locale;

/**
 * The file format of manifests, manifest lists and index manifests ({@code manifest.format}). Both
 * hold the same rows. Reads tell the format from a file's first bytes, so a table whose option
 * changed keeps reading its older manifests; the option decides only what is written.
 */
public enum ManifestFormat {
  AVRO,
  PARQUET;

  /**
   * The format {@code options} ask manifests to be written in.
   *
   * @throws BasaltException naming the option, the value and the supported ones otherwise
   */
  public static ManifestFormat of(Options options, String table) {
    String value =
        options
            .raw(ManifestOptions.MANIFEST_FORMAT.key())
            .map(String::trim)
            .orElse("avro")
            .toLowerCase(Locale.ROOT);
    return switch (value) {
      case "avro" -> AVRO;
      case "parquet" -> PARQUET;
      default ->
          throw new BasaltException(
              String.format(
                  "Table %s has '%s' = '%s'; Basalt reads and writes avro and parquet manifests."
                      + " Fix: set '%s' to 'avro' or 'parquet' (copy the rows with Paimon into such"
                      + " a table, or read this one with Paimon).",
                  table,
                  ManifestOptions.MANIFEST_FORMAT.key(),
                  value,
                  ManifestOptions.MANIFEST_FORMAT.key()));
    };
  }
}
