package io.basalt.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.fs.FileIO;
import io.basalt.schema.SchemaFactory;
import io.basalt.spark.SparkTable;
import io.basalt.table.FileStoreTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MergeReadFiltersTest {
  private static final StructType SCHEMA =
      new StructType()
          .add("dt", DataTypes.StringType, false)
          .add("id", DataTypes.LongType, false)
          .add("v", DataTypes.LongType);

  @TempDir Path dir;

  private FileStoreTable table(String name, Map<String, String> options) {
    return FileStoreTable.create(
        FileIO.local(),
        new org.apache.hadoop.fs.Path(dir.resolve(name).toUri()),
        "db." + name,
        SchemaFactory.create(0, SCHEMA, List.of("dt"), List.of("dt", "id"), options, null));
  }

  private static MetadataColumns noMetadata(FileStoreTable table) {
    StructType tableSchema = SparkTable.sparkSchema(table.schema());
    return MetadataColumns.of(tableSchema, tableSchema);
  }

  @Test
  void keepsFiltersOnKeyColumnsOnlyRenamedToTheKeyColumnsOfFiles() {
    FileStoreTable table = table("t", Map.of("bucket", "2"));
    Filter onKey = new Or(new EqualTo("id", 5L), new In("id", new Object[] {7L, 8L}));
    Filter onValue = new GreaterThan("v", 3L);
    Filter mixed = new And(new EqualTo("id", 5L), new EqualTo("v", 1L));
    Filter onPartition = new EqualTo("dt", "a"); // not a column of the key-value files' key
    Filter[] kept =
        MergeReadFilters.of(
            table, new Filter[] {onKey, onValue, mixed, onPartition}, noMetadata(table));
    assertThat(kept)
        .containsExactly(
            new Or(new EqualTo("_KEY_id", 5L), new In("_KEY_id", new Object[] {7L, 8L})));
    assertThat(MergeReadFilters.toKeyColumns(new Not(new EqualTo("id", 5L)))).isNull();
  }

  @Test
  void nothingWhenRowPositionsCount() {
    FileStoreTable dv = table("dv", Map.of("bucket", "2", "deletion-vectors.enabled", "true"));
    assertThat(MergeReadFilters.of(dv, new Filter[] {new EqualTo("id", 5L)}, noMetadata(dv)))
        .isEmpty();
    FileStoreTable plain = table("plain", Map.of("bucket", "2"));
    StructType tableSchema = SparkTable.sparkSchema(plain.schema());
    MetadataColumns rowIndex =
        MetadataColumns.of(
            tableSchema, tableSchema.add(MetadataColumns.ROW_INDEX, DataTypes.LongType));
    assertThat(MergeReadFilters.of(plain, new Filter[] {new EqualTo("id", 5L)}, rowIndex))
        .isEmpty();
  }
}
