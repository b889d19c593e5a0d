package io.basalt.mergetree;

import io.basalt.data.DelegatingRow;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * A key-value view of a table row: key columns, then sequence number and kind, then the row itself.
 * Reused for every row a writer receives; nothing is copied until the write buffer serializes it.
 */
final class KeyValueRow extends DelegatingRow {
  private final int[] keyIndices;
  private final int keyArity;
  private final MetaRow meta = new MetaRow();
  private InternalRow row;

  KeyValueRow(KeyValueLayout layout, DataType[] fileTypes) {
    super(fileTypes);
    this.keyIndices = layout.keyIndicesInValue();
    this.keyArity = keyIndices.length;
  }

  KeyValueRow replace(InternalRow value, long sequenceNumber, byte kind) {
    this.row = value;
    meta.sequence = sequenceNumber;
    meta.kind = kind;
    return this;
  }

  @Override
  protected InternalRow row(int ordinal) {
    return ordinal == keyArity || ordinal == keyArity + 1 ? meta : row;
  }

  @Override
  protected int index(int ordinal) {
    if (ordinal < keyArity) {
      return keyIndices[ordinal];
    }
    if (ordinal < keyArity + 2) {
      return ordinal - keyArity;
    }
    return ordinal - keyArity - 2;
  }

  /** Sequence number and kind as a two-field row. */
  private static final class MetaRow extends DelegatingRow {
    private long sequence;
    private byte kind;

    MetaRow() {
      super(new DataType[] {DataTypes.LongType, DataTypes.ByteType});
    }

    @Override
    protected InternalRow row(int ordinal) {
      return this;
    }

    @Override
    protected int index(int ordinal) {
      return ordinal;
    }

    @Override
    public boolean isNullAt(int ordinal) {
      return false;
    }

    @Override
    public long getLong(int ordinal) {
      return sequence;
    }

    @Override
    public byte getByte(int ordinal) {
      return kind;
    }

    @Override
    public Object get(int ordinal, DataType dataType) {
      return ordinal == 0 ? (Object) sequence : (Object) kind;
    }
  }
}
