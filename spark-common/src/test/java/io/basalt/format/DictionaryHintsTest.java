package io.basalt.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.schema.SchemaFactory;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files of one write share what they learn about dictionaries: a column whose dictionary
 * Parquet dropped is written plainly in the next files, a retry every few files gives it back when
 * its values start to repeat, and every file reads back the rows written.
 */
class DictionaryHintsTest {
  private static final StructType SCHEMA =
      SchemaFactory.create(
              0,
              new StructType()
                  .add("id", DataTypes.LongType, false)
                  .add("amount", DataTypes.LongType)
                  .add("status", DataTypes.StringType),
              List.of(),
              List.of(),
              Map.of(),
              null)
          .rowType();

  private static final int ROWS = 2_000;

  @TempDir File dir;
  private int files;

  @Test
  void aDroppedDictionaryIsSkippedInTheNextFilesAndRetried() throws IOException {
    DictionaryHints hints = new DictionaryHints();
    ParquetWriteOptions options = ParquetWriteOptions.defaults().withDictionaryHints(hints);

    // unique amounts: Parquet drops their dictionary; the repeating status keeps its own
    assertThat(dictionaryColumns(write(options, true))).containsExactly("status");
    assertThat(hints.plainColumns()).containsExactlyInAnyOrder("id", "amount");

    // the amounts now repeat, but the next files write them plainly without trying ...
    List<List<String>> untilRetry = new ArrayList<>();
    for (int i = 1; i < DictionaryHints.RETRY_INTERVAL - 1; i++) {
      untilRetry.add(dictionaryColumns(write(options, false)));
    }
    assertThat(untilRetry).allSatisfy(columns -> assertThat(columns).containsExactly("status"));

    // ... until the retry, which finds the dictionary pays again and keeps it from then on
    assertThat(dictionaryColumns(write(options, false))).contains("amount", "status");
    assertThat(hints.plainColumns()).containsExactly("id");
    assertThat(dictionaryColumns(write(options, false))).contains("amount", "status");
  }

  @Test
  void withoutHintsEveryFileTriesEveryDictionary() throws IOException {
    ParquetWriteOptions options = ParquetWriteOptions.defaults();
    assertThat(dictionaryColumns(write(options, true))).containsExactly("status");
    assertThat(dictionaryColumns(write(options, false))).contains("amount", "status");
  }

  /** Writes ROWS rows (amounts unique or repeating) and checks they read back; the file. */
  private Path write(ParquetWriteOptions options, boolean uniqueAmounts) throws IOException {
    Path path = new Path(new File(dir, "f" + files++ + ".parquet").toURI());
    List<InternalRow> rows = new ArrayList<>();
    for (long i = 0; i < ROWS; i++) {
      long amount = uniqueAmounts ? i * 7 : i % 5;
      rows.add(
          new GenericInternalRow(new Object[] {i, amount, UTF8String.fromString("s" + i % 3)}));
    }
    try (ParquetRowWriter writer =
        new ParquetRowWriter(new Configuration(), path, SCHEMA, options)) {
      rows.forEach(writer::write);
      assertThat(writer.finish().rowCount()).isEqualTo(ROWS);
    }
    List<InternalRow> read = new ArrayList<>();
    try (var it = DataFileFormat.PARQUET.openRows(new Configuration(), path, SCHEMA)) {
      it.forEachRemaining(r -> read.add(r.copy()));
    }
    assertThat(read).hasSize(ROWS);
    for (int i = 0; i < ROWS; i++) {
      assertThat(read.get(i).getLong(1)).isEqualTo(rows.get(i).getLong(1));
      assertThat(read.get(i).getUTF8String(2)).isEqualTo(rows.get(i).getUTF8String(2));
    }
    return path;
  }

  private static List<String> dictionaryColumns(Path path) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(HadoopInputFile.fromPath(path, new Configuration()))) {
      List<String> columns = new ArrayList<>();
      for (ColumnChunkMetaData chunk : reader.getFooter().getBlocks().get(0).getColumns()) {
        if (chunk.getEncodings().contains(Encoding.PLAIN_DICTIONARY)
            || chunk.getEncodings().contains(Encoding.RLE_DICTIONARY)) {
          columns.add(chunk.getPath().toDotString());
        }
      }
      return columns;
    }
  }
}
