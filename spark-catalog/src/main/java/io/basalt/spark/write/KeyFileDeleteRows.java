package io.basalt.spark.write;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.operation.write.KeyFileDeletes;
import io.basalt.spark.read.MetadataColumns;
import io.basalt.table.FileStoreTable;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * How a DELETE that removes rows from files ({@link KeyFileDeletes}) finds each deleted key's
 * bucket: the scan reads {@value MetadataColumns#PARTITION} and {@value MetadataColumns#BUCKET}
 * with each deleted row, the write clusters rows by them (so a bucket is one task's) and sorts each
 * bucket by key, the order of the files' rows.
 */
final class KeyFileDeleteRows implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int partitionIndex;
  private final int bucketIndex;
  private final int partitionArity;
  // for each key column of the files (the trimmed primary key), its place in the row id
  private final int[] keyInRowId;
  private final DataType[] keyTypes;
  private transient BinaryRowCodec partitionCodec;
  private final StructType partitionType;

  KeyFileDeleteRows(FileStoreTable table, StructType rowId, StructType metadata) {
    this.partitionType = table.partitionType();
    this.partitionArity = partitionType.size();
    this.partitionIndex = partitionArity == 0 ? -1 : metadata.fieldIndex(MetadataColumns.PARTITION);
    this.bucketIndex = metadata.fieldIndex(MetadataColumns.BUCKET);
    List<String> keys = table.schema().trimmedPrimaryKeys();
    List<String> rowIdNames = List.of(rowId.fieldNames());
    this.keyInRowId = new int[keys.size()];
    this.keyTypes = new DataType[keys.size()];
    for (int i = 0; i < keyInRowId.length; i++) {
      keyInRowId[i] = rowIdNames.indexOf(keys.get(i));
      keyTypes[i] = rowId.fields()[keyInRowId[i]].dataType();
    }
  }

  /** The metadata columns the scan must read. */
  static NamedReference[] metadataColumns(FileStoreTable table) {
    return table.partitionType().size() == 0
        ? new NamedReference[] {Expressions.column(MetadataColumns.BUCKET)}
        : new NamedReference[] {
          Expressions.column(MetadataColumns.PARTITION), Expressions.column(MetadataColumns.BUCKET)
        };
  }

  /** The write's clustering: by the deleted row's partition and bucket. */
  static Expression[] clustering(FileStoreTable table) {
    return metadataColumns(table);
  }

  /** Bucket after bucket, by the files' key. */
  static SortOrder[] ordering(FileStoreTable table) {
    List<String> keys = table.schema().trimmedPrimaryKeys();
    Expression[] clustering = clustering(table);
    SortOrder[] ordering = new SortOrder[clustering.length + keys.size()];
    for (int i = 0; i < clustering.length; i++) {
      ordering[i] = Expressions.sort(clustering[i], SortDirection.ASCENDING);
    }
    for (int i = 0; i < keys.size(); i++) {
      ordering[clustering.length + i] =
          Expressions.sort(Expressions.column(keys.get(i)), SortDirection.ASCENDING);
    }
    return ordering;
  }

  /** Hands the deleted row ({@code metadata}, {@code id}) to {@code deletes}. */
  void delete(KeyFileDeletes deletes, InternalRow metadata, InternalRow id) {
    BinaryRow partition = BinaryRow.EMPTY;
    if (partitionIndex >= 0) {
      if (partitionCodec == null) {
        partitionCodec = new BinaryRowCodec(partitionType);
      }
      partition = partitionCodec.toBinary(metadata.getStruct(partitionIndex, partitionArity));
    }
    // a copy: the engine keeps the key, and Spark reuses its rows
    InternalRow copied = id.copy();
    GenericInternalRow key = new GenericInternalRow(keyInRowId.length);
    for (int i = 0; i < keyInRowId.length; i++) {
      key.update(i, copied.get(keyInRowId[i], keyTypes[i]));
    }
    deletes.delete(partition, metadata.getInt(bucketIndex), key);
  }
}
