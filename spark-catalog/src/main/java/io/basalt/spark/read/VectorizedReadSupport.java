package io.basalt.spark.read;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.InitContext;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * The read support of Basalt's columnar reads with Spark's vectorized Parquet reader: it clips each
 * file's schema to the requested one as Spark's {@link ParquetReadSupport} does, but parses the
 * requested schema's JSON once per schema rather than once per file (Spark's read support parses it
 * again for every file; over a scan of many small files the parsing showed in the profile). Spark's
 * reader makes a new instance per file by its public no-argument constructor, so parsed schemas are
 * kept in a small static cache (a task's reads use one or two schemas: with row positions or
 * without; the cache is emptied when it passes {@value #CACHED} schemas). The vectorized reader
 * never asks for record materializers.
 */
public final class VectorizedReadSupport extends ReadSupport<InternalRow> {
  /** The most schemas kept parsed. */
  static final int CACHED = 32;

  /** Parsed requested schemas by their JSON. */
  private static final Map<String, StructType> PARSED = new ConcurrentHashMap<>();

  @Override
  public ReadContext init(InitContext context) {
    Configuration conf = context.getConfiguration();
    StructType requested = requestedSchema(conf);
    MessageType clipped =
        ParquetReadSupport.getRequestedSchema(context.getFileSchema(), requested, conf, true);
    return new ReadContext(clipped, new HashMap<>());
  }

  /** The requested Spark schema in {@code conf}, parsed once while it stays the same. */
  static StructType requestedSchema(Configuration conf) {
    String json = conf.get(ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA());
    if (json == null) {
      throw new IllegalStateException(
          "The Hadoop configuration of a Basalt columnar read has no "
              + ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA()
              + "; VectorizedReadOptions.hadoopConf sets it");
    }
    StructType parsed = PARSED.get(json);
    if (parsed == null) {
      if (PARSED.size() >= CACHED) {
        PARSED.clear();
      }
      parsed = (StructType) DataType.fromJson(json);
      PARSED.put(json, parsed);
    }
    return parsed;
  }

  @Override
  public RecordMaterializer<InternalRow> prepareForRead(
      Configuration conf,
      Map<String, String> fileMetadata,
      MessageType fileSchema,
      ReadContext readContext) {
    throw new UnsupportedOperationException(
        "Basalt's columnar Parquet read support serves Spark's vectorized reader only, which"
            + " materializes no records");
  }
}
