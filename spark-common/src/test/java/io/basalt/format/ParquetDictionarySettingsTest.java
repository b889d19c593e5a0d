package io.basalt.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.schema.SchemaFactory;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer applies Parquet's dictionary settings from the configuration, which Parquet's own
 * writer builder ignores: the whole-file switch and one switch per top-level column.
 */
class ParquetDictionarySettingsTest {
  private static final StructType SCHEMA =
      SchemaFactory.create(
              0,
              new StructType()
                  .add("id", DataTypes.LongType, false)
                  .add("status", DataTypes.StringType),
              List.of(),
              List.of(),
              Map.of(),
              null)
          .rowType();

  @TempDir File dir;

  @Test
  void dictionaryIsOnByDefaultAndOffForTheColumnsTheConfigurationNames() throws IOException {
    assertThat(dictionaryColumns(new Configuration(), "default.parquet"))
        .containsExactlyInAnyOrder("id", "status");

    Configuration conf = new Configuration();
    conf.set("parquet.enable.dictionary#id", "false");
    assertThat(dictionaryColumns(conf, "no-id-dictionary.parquet")).containsExactly("status");

    Configuration none = new Configuration();
    none.set("parquet.enable.dictionary", "false");
    assertThat(dictionaryColumns(none, "no-dictionary.parquet")).isEmpty();
  }

  @Test
  void aValueThatIsNoBooleanIsRefusedNamingTheSetting() {
    Configuration conf = new Configuration();
    conf.set("parquet.enable.dictionary#status", "sometimes");
    assertThatThrownBy(() -> dictionaryColumns(conf, "bad.parquet"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'sometimes'")
        .hasMessageContaining("'parquet.enable.dictionary#status'")
        .hasMessageContaining("expected true or false");
  }

  /** Writes rows with few distinct values and returns the columns Parquet dictionary-encoded. */
  private Set<String> dictionaryColumns(Configuration conf, String name) throws IOException {
    Path path = new Path(new File(dir, name).toURI());
    try (ParquetRowWriter writer =
        new ParquetRowWriter(conf, path, SCHEMA, ParquetWriteOptions.defaults())) {
      for (long i = 0; i < 1000; i++) {
        writer.write(
            new GenericInternalRow(new Object[] {i % 3, UTF8String.fromString("s" + i % 2)}));
      }
      writer.finish();
    }
    try (ParquetFileReader reader =
        ParquetFileReader.open(HadoopInputFile.fromPath(path, new Configuration()))) {
      Set<String> columns = new java.util.TreeSet<>();
      for (ColumnChunkMetaData column : reader.getFooter().getBlocks().get(0).getColumns()) {
        if (column.getEncodings().contains(Encoding.PLAIN_DICTIONARY)
            || column.getEncodings().contains(Encoding.RLE_DICTIONARY)) {
          columns.add(column.getPath().toDotString());
        }
      }
      return columns;
    }
  }
}
