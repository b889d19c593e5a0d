package io.basalt.spark.read;

import io.basalt.predicate.Predicate;
import io.basalt.predicate.ValueEvaluator;
import io.basalt.spark.SparkTable;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads the splits of a {@link LocalLookupScan} on the driver, through the very reader factory the
 * distributed scan would ship to its tasks ({@link ColumnarReads}: merges, deletion vectors, schema
 * evolution, metadata columns and Parquet filtering all as there), and keeps the rows the lookup's
 * filter matches, copied. The readers reuse their rows and batches, so each kept row is copied
 * before the next is read; only matching rows are kept, which the lookup bounds.
 */
final class LocalLookupRows {
  private final FileStoreTable table;
  private final StructType readSchema;
  @Nullable private final Predicate filter;

  /** The table columns read (those asked for, then those only the filter needs). */
  private final StructType dataSchema;

  private final MetadataColumns metadata;

  /** Each column's position and type in the rows the readers return. */
  private final Map<String, Integer> positions = new HashMap<>();

  private final DataType[] types;
  private final int[] outputPositions;
  private final UnsafeProjection copier;

  /**
   * @param readSchema the scan's output: table columns, then metadata columns
   * @param filter what rows must satisfy, evaluated exactly; null keeps every row read
   */
  LocalLookupRows(FileStoreTable table, StructType readSchema, @Nullable Predicate filter) {
    this.table = table;
    this.readSchema = readSchema;
    this.filter = filter;
    StructType tableSchema = SparkTable.sparkSchema(table.schema());
    StructType data = MetadataColumns.dataSchema(tableSchema, readSchema);
    if (filter != null) {
      for (String column : filter.columns()) {
        if (data.getFieldIndex(column).isEmpty()) {
          data = data.add(tableSchema.apply(column));
        }
      }
    }
    this.dataSchema = data;
    this.metadata = MetadataColumns.of(tableSchema, readSchema);
    List<StructField> layout = new ArrayList<>(Arrays.asList(dataSchema.fields()));
    layout.addAll(Arrays.asList(metadata.fields().fields()));
    this.types = new DataType[layout.size()];
    for (int i = 0; i < layout.size(); i++) {
      positions.put(layout.get(i).name(), i);
      types[i] = layout.get(i).dataType();
    }
    this.outputPositions = new int[readSchema.size()];
    for (int i = 0; i < outputPositions.length; i++) {
      outputPositions[i] = positions.get(readSchema.fields()[i].name());
    }
    this.copier = UnsafeProjection.create(readSchema);
  }

  /** The matching rows of {@code splits}; {@code parquetFilters} skip row groups as in tasks. */
  InternalRow[] read(List<DataSplit> splits, Filter[] parquetFilters) {
    metadata.checkReadable(table, splits);
    boolean columnar = ColumnarReads.columnar(table, dataSchema, metadata, splits);
    PartitionReaderFactory factory =
        ColumnarReads.readerFactory(table, dataSchema, metadata, parquetFilters, columnar);
    List<InternalRow> rows = new ArrayList<>();
    for (DataSplit split : splits) {
      InputPartition partition = new PackedInputPartition(List.of(split));
      if (columnar) {
        try (PartitionReader<ColumnarBatch> reader = factory.createColumnarReader(partition)) {
          while (reader.next()) {
            Iterator<InternalRow> batchRows = reader.get().rowIterator();
            while (batchRows.hasNext()) {
              keep(batchRows.next(), rows);
            }
          }
        } catch (IOException e) {
          throw failed(split, e);
        }
      } else {
        try (PartitionReader<InternalRow> reader = factory.createReader(partition)) {
          while (reader.next()) {
            keep(reader.get(), rows);
          }
        } catch (IOException e) {
          throw failed(split, e);
        }
      }
    }
    return rows.toArray(new InternalRow[0]);
  }

  private UncheckedIOException failed(DataSplit split, IOException e) {
    return new UncheckedIOException(
        String.format(
            "Failed to read bucket %d of table %s for a point lookup",
            split.bucket(), table.name()),
        e);
  }

  /** Adds a copy of {@code row}'s output columns when it matches the filter. */
  private void keep(InternalRow row, List<InternalRow> rows) {
    if (filter != null
        && !ValueEvaluator.test(filter, column -> value(row, positions.get(column)))) {
      return;
    }
    GenericInternalRow output = new GenericInternalRow(outputPositions.length);
    for (int i = 0; i < outputPositions.length; i++) {
      output.update(i, value(row, outputPositions[i]));
    }
    rows.add(copier.apply(output).copy());
  }

  @Nullable
  private Object value(InternalRow row, int position) {
    return row.isNullAt(position) ? null : row.get(position, types[position]);
  }
}
