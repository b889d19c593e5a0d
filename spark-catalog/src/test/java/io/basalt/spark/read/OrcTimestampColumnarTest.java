package io.basalt.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.format.orc.OrcFileReader;
import io.basalt.format.orc.OrcFileWriter;
import io.basalt.schema.DataField;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ORC timestamps the engine writes, read back as columnar batches ({@link OrcFileBatches}): the
 * same values as written and as the engine's row reader gives, negative fractions included.
 */
class OrcTimestampColumnarTest {
  private static final TimeZone ORIGINAL_ZONE = TimeZone.getDefault();

  /** Representable wall clocks around the epoch, with fractions, far past and far future. */
  private static final List<LocalDateTime> VALUES =
      List.of(
          LocalDateTime.parse("1969-12-31T23:59:59"),
          LocalDateTime.parse("1969-12-31T23:59:59.000001"),
          LocalDateTime.parse("1969-12-31T23:59:58.999"),
          LocalDateTime.parse("1969-12-31T23:59:58.5"),
          LocalDateTime.parse("1969-01-01T00:00:00.5"),
          LocalDateTime.parse("1970-01-01T00:00"),
          LocalDateTime.parse("1970-01-01T00:00:00.999999"),
          LocalDateTime.parse("1900-01-01T00:00:00.000001"),
          LocalDateTime.parse("1582-10-04T23:59:59.999999"),
          LocalDateTime.parse("0001-01-01T00:00:00.000001"),
          LocalDateTime.parse("9999-12-31T23:59:59.999999"));

  @TempDir java.nio.file.Path dir;

  @AfterEach
  void restoreZone() {
    TimeZone.setDefault(ORIGINAL_ZONE);
  }

  private static StructField field(String name, DataType type, long id) {
    return new StructField(
        name, type, true, new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, id).build());
  }

  private static long micros(LocalDateTime value) {
    return value.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + value.getNano() / 1000;
  }

  private static LocalDateTime wallClock(long micros) {
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L),
        (int) Math.floorMod(micros, 1_000_000L) * 1000,
        ZoneOffset.UTC);
  }

  @ParameterizedTest
  @ValueSource(strings = {"UTC", "America/Los_Angeles"})
  void columnarReadsTheValuesWrittenAsTheRowReaderDoes(String zone) {
    TimeZone.setDefault(TimeZone.getTimeZone(zone));
    StructType schema =
        new StructType(
            new StructField[] {
              field("ts", DataTypes.TimestampType, 1),
              field("ntz", DataTypes.TimestampNTZType, 2),
              field("arr", DataTypes.createArrayType(DataTypes.TimestampType), 3)
            });
    Path path = new Path(dir.resolve("ts-" + zone.replace('/', '-') + ".orc").toUri());
    Configuration conf = new Configuration();
    try (OrcFileWriter writer = new OrcFileWriter(conf, path, schema, "zstd", false)) {
      for (LocalDateTime value : VALUES) {
        long micros = micros(value);
        writer.write(
            new GenericInternalRow(
                new Object[] {micros, micros, new GenericArrayData(new Object[] {micros})}));
      }
      writer.finish();
    }
    List<String> expected = new ArrayList<>();
    for (LocalDateTime value : VALUES) {
      expected.add(value + " " + value + " " + value);
    }
    List<String> columnar = new ArrayList<>();
    try (OrcFileBatches file =
        OrcFileBatches.open(conf, path, schema, new OrcReadOptions(4, true), new Filter[0])) {
      while (file.next()) {
        ColumnarBatch batch = file.batch();
        for (int i = 0; i < batch.numRows(); i++) {
          columnar.add(
              wallClock(batch.column(0).getLong(i))
                  + " "
                  + wallClock(batch.column(1).getLong(i))
                  + " "
                  + wallClock(batch.column(2).getArray(i).getLong(0)));
        }
      }
    }
    List<String> rows = new ArrayList<>();
    try (OrcFileReader reader = OrcFileReader.open(conf, path, schema)) {
      while (reader.hasNext()) {
        InternalRow row = reader.next();
        rows.add(
            wallClock(row.getLong(0))
                + " "
                + wallClock(row.getLong(1))
                + " "
                + wallClock(row.getArray(2).getLong(0)));
      }
    }
    assertThat(columnar).containsExactlyElementsOf(expected);
    assertThat(rows).containsExactlyElementsOf(expected);
  }
}
