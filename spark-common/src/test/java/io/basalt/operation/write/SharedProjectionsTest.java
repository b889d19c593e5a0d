package io.basalt.operation.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One write generates one projection per row type, however many bucket writers it opens, and the
 * buffers sharing it still keep every row.
 */
class SharedProjectionsTest {
  @TempDir Path dir;

  @Test
  void oneProjectionPerRowTypeEncodingCorrectly() {
    SharedProjections projections = new SharedProjections();
    StructType a = new StructType().add("x", DataTypes.LongType).add("s", DataTypes.StringType);
    StructType b = new StructType().add("y", DataTypes.IntegerType);
    UnsafeProjection first = projections.of(a);
    assertThat(
            projections.of(
                new StructType().add("x", DataTypes.LongType).add("s", DataTypes.StringType)))
        .isSameAs(first);
    assertThat(projections.of(b)).isNotSameAs(first);
    assertThat(projections.size()).isEqualTo(2);
    var row = first.apply(new GenericInternalRow(new Object[] {7L, UTF8String.fromString("q")}));
    assertThat(row.getLong(0)).isEqualTo(7L);
    assertThat(row.getUTF8String(1).toString()).isEqualTo("q");
  }

  @Test
  void bucketWritersOfOneWriteShareTheirProjectionAndKeepEveryRow() {
    FileStoreTable table =
        TestTables.create(dir, true, List.of(), Map.of("bucket", "8", "write-only", "true"));
    TableWrite write = table.newWrite(null, false);
    for (long id = 0; id < 2000; id++) {
      write.write(TestTables.row(id, "v" + id));
    }
    assertThat(write.projectionsGenerated()).as("eight bucket writers, one row type").isEqualTo(1);
    table.newCommit("user").commit(write.prepareCommit(), 1);
    assertThat(TestTables.readAll(table)).hasSize(2000).containsEntry(1999L, "v1999");
  }
}
