package io.basalt.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.merge.MergeEngine;
import io.basalt.options.Options;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class CrossPartitionValidationTest {
  private static final StructType COLUMNS =
      new StructType()
          .add("id", DataTypes.IntegerType, false)
          .add("dt", DataTypes.StringType)
          .add("v", DataTypes.IntegerType);

  private static TableSchema schema(Map<String, String> options) {
    return SchemaFactory.create(0, COLUMNS, List.of("dt"), List.of("id"), options, null);
  }

  @Test
  void dynamicBucketKeyWithoutPartitionIsACrossPartitionTable() {
    TableSchema schema = schema(Map.of("cross-partition-upsert.enabled", "true"));
    SchemaValidation.validate(schema, "db.t");
    assertThat(schema.crossPartitionUpsert()).isTrue();
    assertThat(
            SchemaFactory.create(0, COLUMNS, List.of("dt"), List.of("dt", "id"), Map.of(), null)
                .crossPartitionUpsert())
        .isFalse();
  }

  @Test
  void fixedAndPostponedBucketsAreRefused() {
    for (String bucket : List.of("4", "-2")) {
      assertThatThrownBy(() -> SchemaValidation.validate(schema(Map.of("bucket", bucket)), "db.t"))
          .hasMessageContaining(
              "The primary key (id) of table db.t leaves out partition column(s) dt")
          .hasMessageContaining("not 'bucket' = " + bucket)
          .hasMessageContaining("Fix: remove 'bucket', or set 'primary-key' = 'dt,id'");
    }
  }

  @Test
  void disabledOptionIsRefused() {
    assertThatThrownBy(
            () ->
                SchemaValidation.validate(
                    schema(Map.of("cross-partition-upsert.enabled", "false")), "db.t"))
        .hasMessageContaining("Option 'cross-partition-upsert.enabled' = 'false' on table db.t")
        .hasMessageContaining("add the partition columns to the primary key instead")
        .hasMessageContaining("'primary-key' = 'dt,id'");
  }

  @Test
  void eachMergeEngineHasPaimonsRule() {
    assertThat(rule("deduplicate")).isEqualTo(MergeEngine.CrossPartitionRule.MOVE);
    assertThat(rule("partial-update")).isEqualTo(MergeEngine.CrossPartitionRule.UPDATE_IN_PLACE);
    assertThat(rule("aggregation")).isEqualTo(MergeEngine.CrossPartitionRule.UPDATE_IN_PLACE);
    assertThat(rule("first-row")).isEqualTo(MergeEngine.CrossPartitionRule.KEEP_FIRST);
  }

  private static MergeEngine.CrossPartitionRule rule(String engine) {
    TableSchema schema = schema(Map.of("merge-engine", engine));
    return MergeEngine.of(schema, new Options(schema.options(), "table db.t"), "db.t")
        .crossPartitionRule();
  }
}
