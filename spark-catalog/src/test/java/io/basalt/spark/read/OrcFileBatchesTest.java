package io.basalt.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.schema.DataField;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OrcFileBatches} over a file of several stripes of several row groups: the row positions it
 * reports stay the file's own when the search argument skips row groups and whole stripes, which
 * deletion vectors and the row index column rely on.
 */
class OrcFileBatchesTest {
  private static final int ROWS = 20_000;
  private static final int STRIDE = 1_000;

  @TempDir java.nio.file.Path dir;

  /** A file whose column {@code pos} (field id 1) holds each row's position. */
  private Path write() throws IOException {
    Configuration conf = new Configuration();
    TypeDescription schema = TypeDescription.fromString("struct<pos:bigint,v:bigint>");
    schema.getChildren().get(0).setAttribute("paimon.id", "1");
    schema.getChildren().get(1).setAttribute("paimon.id", "2");
    Path path = new Path(dir.resolve("data.orc").toUri());
    // small stripes (a few row groups each) so that skipping crosses stripes
    try (Writer writer =
        OrcFile.createWriter(
            path,
            OrcFile.writerOptions(conf)
                .setSchema(schema)
                .rowIndexStride(STRIDE)
                .stripeSize(4096)
                .bufferSize(4096))) {
      VectorizedRowBatch batch = schema.createRowBatch(500);
      for (int row = 0; row < ROWS; row++) {
        int i = batch.size++;
        ((LongColumnVector) batch.cols[0]).vector[i] = row;
        ((LongColumnVector) batch.cols[1]).vector[i] = row / STRIDE;
        if (batch.size == batch.getMaxSize()) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
      if (batch.size > 0) {
        writer.addRowBatch(batch);
      }
    }
    return path;
  }

  private static StructField field(String name, long id) {
    Metadata metadata = new MetadataBuilder().putLong(DataField.FIELD_ID_KEY, id).build();
    return new StructField(name, DataTypes.LongType, true, metadata);
  }

  private static List<long[]> read(Path path, Filter... filters) {
    StructType requested = new StructType(new StructField[] {field("pos", 1), field("v", 2)});
    List<long[]> batches = new ArrayList<>();
    try (OrcFileBatches file =
        OrcFileBatches.open(
            new Configuration(), path, requested, new OrcReadOptions(300, true), filters)) {
      while (file.next()) {
        ColumnarBatch batch = file.batch();
        for (int i = 0; i < batch.numRows(); i++) {
          // the reported position of each row is the position stored in it
          assertThat(file.firstRow() + i).isEqualTo(batch.column(0).getLong(i));
        }
        batches.add(new long[] {file.firstRow(), batch.numRows()});
      }
      batches.add(new long[] {file.rowGroupsSkipped(), file.rowsSkipped()});
    }
    return batches;
  }

  @Test
  void positionsStayTheFilesAcrossSkippedRowGroupsAndStripes() throws IOException {
    Path path = write();
    assertThat(OrcFile.createReader(path, OrcFile.readerOptions(new Configuration())).getStripes())
        .hasSizeGreaterThan(2);
    List<long[]> all = read(path);
    assertThat(all.stream().limit(all.size() - 1).mapToLong(b -> b[1]).sum()).isEqualTo(ROWS);
    assertThat(all.get(all.size() - 1)).containsExactly(0, 0);

    // row groups 2, 7 and 13..19 only
    List<long[]> some =
        read(
            path,
            new Or(
                new EqualTo("v", 2L),
                new Or(new EqualTo("v", 7L), new GreaterThanOrEqual("v", 13L))));
    long kept = some.stream().limit(some.size() - 1).mapToLong(b -> b[1]).sum();
    assertThat(kept).isEqualTo(9 * STRIDE);
    assertThat(some.get(some.size() - 1)).containsExactly(11, ROWS - kept);

    // nothing matches: every row group skipped, no batch
    List<long[]> none = read(path, new LessThan("pos", -1L));
    assertThat(none).hasSize(1);
    assertThat(none.get(0)).containsExactly(ROWS / STRIDE, ROWS);
  }

  @Test
  void notAnOrcFileFailsNamingIt() throws IOException {
    java.nio.file.Path bad = dir.resolve("bad.orc");
    Files.writeString(bad, "not an orc file");
    Path path = new Path(bad.toUri());
    assertThatThrownBy(() -> read(path))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Failed to open ORC file " + path);
  }
}
