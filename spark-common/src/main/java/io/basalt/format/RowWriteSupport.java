package io.basalt.format;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;

/** Feeds Spark rows to parquet-hadoop's writer; adds no key-value metadata to the footer. */
final class RowWriteSupport extends WriteSupport<InternalRow> {
  private final StructType fileSchema;
  private final MessageType messageType;
  private RecordConsumer consumer;
  private ValueWriters.RowWriter rowWriter;

  RowWriteSupport(StructType fileSchema) {
    this.fileSchema = fileSchema;
    this.messageType = ParquetSchemas.toMessageType(fileSchema);
  }

  @Override
  public WriteContext init(Configuration configuration) {
    return new WriteContext(messageType, Map.of());
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
    this.rowWriter = new ValueWriters.RowWriter(fileSchema, recordConsumer, "");
  }

  @Override
  public void write(InternalRow row) {
    consumer.startMessage();
    rowWriter.writeFields(row);
    consumer.endMessage();
  }
}
