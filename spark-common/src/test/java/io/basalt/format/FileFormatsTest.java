package io.basalt.format;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.options.Options;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FileFormatsTest {
  @Test
  void parquetDataAndAvroManifestsAreReadable() {
    assertThatCode(() -> FileFormats.checkReadable(new Options(Map.of(), "db.t"), "db.t"))
        .doesNotThrowAnyException();
    Options explicit =
        new Options(Map.of("file.format", "PARQUET", "manifest.format", "avro"), "db.t");
    assertThatCode(() -> FileFormats.checkReadable(explicit, "db.t")).doesNotThrowAnyException();
    assertThatCode(() -> FileFormats.checkDataFile("data-1a-0.parquet", "db.t"))
        .doesNotThrowAnyException();
  }

  @Test
  void orcAndAvroDataFilesAreReadable() {
    for (String format : new String[] {"avro", "ORC"}) {
      Options options = new Options(Map.of("file.format", format), "db.t");
      assertThatCode(() -> FileFormats.checkReadable(options, "db.t")).doesNotThrowAnyException();
      assertThatCode(() -> FileFormats.checkDataFile("data-1a-0." + format, "db.t"))
          .doesNotThrowAnyException();
    }
  }

  @Test
  void otherDataFormatsAreRefusedNamingTheOption() {
    for (String format : new String[] {"csv", "lance"}) {
      Options options = new Options(Map.of("file.format", format), "db.t");
      assertThatThrownBy(() -> FileFormats.checkReadable(options, "db.t"))
          .isInstanceOf(BasaltException.class)
          .hasMessageStartingWith("Table db.t has 'file.format' = '" + format + "'")
          .hasMessageContaining("Basalt reads and writes parquet, orc and avro data files")
          .hasMessageContaining("Fix: copy the rows with Paimon into a table created with")
          .hasMessageContaining("'file.format' = 'parquet'");
    }
  }

  @Test
  void parquetManifestsAreReadAndOrcManifestsRefusedNamingTheOption() {
    FileFormats.checkReadable(new Options(Map.of("manifest.format", "parquet"), "db.t"), "db.t");
    Options options = new Options(Map.of("manifest.format", "orc"), "db.t");
    assertThatThrownBy(() -> FileFormats.checkReadable(options, "db.t"))
        .hasMessageStartingWith("Table db.t has 'manifest.format' = 'orc'")
        .hasMessageContaining("Basalt reads and writes avro and parquet manifests");
  }

  @Test
  void aDataFileInAnotherFormatIsRefusedNamingItAndTheOption() {
    assertThatThrownBy(() -> FileFormats.checkDataFile("data-1a-0.csv", "db.t"))
        .hasMessageStartingWith(
            "Data file data-1a-0.csv of table db.t is in format 'csv' (Paimon's option"
                + " 'file.format'); Basalt reads only parquet, orc and avro data files")
        .hasMessageContaining("'file.format' = 'parquet'");
  }
}
