package io.basalt.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class ParquetReadContextsTest {
  private static final FilterPredicate ID_ABOVE_10 = FilterApi.gt(FilterApi.longColumn("id"), 10L);
  private static final FilterPredicate ID_ABOVE_20 = FilterApi.gt(FilterApi.longColumn("id"), 20L);

  private static ParquetReadContexts contexts() {
    Configuration base = new Configuration(false);
    base.set("basalt.test.key", "kept");
    return new ParquetReadContexts(base);
  }

  @Test
  void filesWithoutAFilterShareOneContextThatHoldsNoFilter() {
    ParquetReadContexts contexts = contexts();
    TaskAttemptContext first = contexts.context(null);
    assertThat(contexts.context(null)).isSameAs(first);
    // Hadoop's task context takes the JobConf as it is: no copy per file
    assertThat(first.getConfiguration()).isSameAs(contexts.conf());
    assertThat(first.getConfiguration().get("basalt.test.key")).isEqualTo("kept");
    assertThat(ParquetInputFormat.getFilter(first.getConfiguration())).isSameAs(FilterCompat.NOOP);
  }

  @Test
  void eachFilterHasItsOwnCopyAndTheSharedConfigurationStaysUnfiltered() {
    ParquetReadContexts contexts = contexts();
    TaskAttemptContext above10 = contexts.context(ID_ABOVE_10);
    // an equal filter (as the next file of the same schema gets) reuses the copy
    assertThat(contexts.context(FilterApi.gt(FilterApi.longColumn("id"), 10L))).isSameAs(above10);
    assertThat(filterOf(above10)).isEqualTo(ID_ABOVE_10);
    assertThat(above10.getConfiguration().get("basalt.test.key")).isEqualTo("kept");

    TaskAttemptContext above20 = contexts.context(ID_ABOVE_20);
    assertThat(above20).isNotSameAs(above10);
    assertThat(filterOf(above20)).isEqualTo(ID_ABOVE_20);
    // the earlier context keeps its own filter
    assertThat(filterOf(above10)).isEqualTo(ID_ABOVE_10);
    assertThat(ParquetInputFormat.getFilter(contexts.conf())).isSameAs(FilterCompat.NOOP);
    assertThat(ParquetInputFormat.getFilter(contexts.context(null).getConfiguration()))
        .isSameAs(FilterCompat.NOOP);
  }

  @Test
  void aTaskCopiesTheConfigurationOncePerKindOfBatch() {
    StructType read = new StructType().add("id", DataTypes.LongType);
    VectorizedReadOptions options =
        new VectorizedReadOptions(
            read, 4096, false, "UTC", true, true, true, true, true, true, 10, new Filter[0]);
    ParquetReadContexts.PerTask task =
        new ParquetReadContexts.PerTask(options, new Configuration(false));
    ParquetReadContexts plain = task.get(false);
    ParquetReadContexts positions = task.get(true);
    assertThat(task.get(false)).isSameAs(plain);
    assertThat(task.get(true)).isSameAs(positions);
    assertThat(plain.conf()).isNotSameAs(positions.conf());

    StructType plainSchema =
        (StructType)
            DataType.fromJson(plain.conf().get(ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA()));
    StructType positionSchema =
        (StructType)
            DataType.fromJson(
                positions.conf().get(ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA()));
    assertThat(plainSchema.fieldNames()).containsExactly("id");
    assertThat(positionSchema.fieldNames())
        .containsExactly("id", ParquetFileFormat.ROW_INDEX_TEMPORARY_COLUMN_NAME());
  }

  private static FilterPredicate filterOf(TaskAttemptContext context) {
    FilterCompat.Filter filter = ParquetInputFormat.getFilter(context.getConfiguration());
    assertThat(filter).isInstanceOf(FilterCompat.FilterPredicateCompat.class);
    return ((FilterCompat.FilterPredicateCompat) filter).getFilterPredicate();
  }
}
