package io.basalt.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.InitContext;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class VectorizedReadSupportTest {
  private static final MessageType FILE =
      MessageTypeParser.parseMessageType(
          "message spark_schema { required int64 id; optional binary v (STRING); optional int32"
              + " w; }");

  private static Configuration conf(StructType requested) {
    Configuration conf = new Configuration(false);
    conf.set(ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA(), requested.json());
    return conf;
  }

  @Test
  void clipsTheFileSchemaAsSparksReadSupportDoes() {
    StructType requested =
        new StructType().add("v", DataTypes.StringType).add("id", DataTypes.LongType);
    Configuration conf = conf(requested);
    InitContext context = new InitContext(conf, Map.<String, Set<String>>of(), FILE);
    ReadSupport.ReadContext ours = new VectorizedReadSupport().init(context);
    ReadSupport.ReadContext spark = new ParquetReadSupport().init(context);
    assertThat(ours.getRequestedSchema()).isEqualTo(spark.getRequestedSchema());
    assertThat(ours.getRequestedSchema().getFieldCount()).isEqualTo(2);
  }

  @Test
  void parsesEachRequestedSchemaOnceAndKeepsFewOfThem() {
    StructType first = new StructType().add("id", DataTypes.LongType);
    StructType second = first.add("v", DataTypes.StringType);
    StructType parsed = VectorizedReadSupport.requestedSchema(conf(first));
    assertThat(parsed).isEqualTo(first);
    // files of one read share the parsed schema, also while another read's files interleave
    assertThat(VectorizedReadSupport.requestedSchema(conf(second))).isEqualTo(second);
    assertThat(VectorizedReadSupport.requestedSchema(conf(first))).isSameAs(parsed);
    // many other schemas empty the cache: a schema is then parsed anew, and still right
    for (int i = 0; i <= VectorizedReadSupport.CACHED; i++) {
      StructType other = first.add("c" + i, DataTypes.IntegerType);
      assertThat(VectorizedReadSupport.requestedSchema(conf(other))).isEqualTo(other);
    }
    assertThat(VectorizedReadSupport.requestedSchema(conf(first))).isEqualTo(first);
  }

  @Test
  void failsClearlyWithoutARequestedSchema() {
    assertThatThrownBy(() -> VectorizedReadSupport.requestedSchema(new Configuration(false)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "The Hadoop configuration of a Basalt columnar read has no "
                + ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA()
                + "; VectorizedReadOptions.hadoopConf sets it");
  }

  @Test
  void materializesNoRecords() {
    assertThatThrownBy(
            () ->
                new VectorizedReadSupport()
                    .prepareForRead(new Configuration(false), Map.of(), FILE, null))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("serves Spark's vectorized reader only");
  }
}
