package io.basalt.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.sql.vectorized.ColumnarRow;
import org.junit.jupiter.api.Test;

class SelectedRowsVectorTest {
  private static final int ROWS = 6;

  @Test
  void viewsMapRowIdsOfEveryKindOfColumn() {
    StructType schema =
        new StructType()
            .add("i", DataTypes.IntegerType)
            .add("s", DataTypes.StringType)
            .add("d", DataTypes.createDecimalType(20, 2))
            .add("b", DataTypes.BinaryType)
            .add("arr", DataTypes.createArrayType(DataTypes.LongType))
            .add(
                "st",
                new StructType().add("a", DataTypes.IntegerType).add("t", DataTypes.StringType));
    OnHeapColumnVector[] vectors = OnHeapColumnVector.allocateColumns(ROWS, schema);
    try {
      OnHeapColumnVector arrayData = (OnHeapColumnVector) vectors[4].getChild(0);
      for (int r = 0; r < ROWS; r++) {
        if (r == 3) {
          for (OnHeapColumnVector v : vectors) {
            v.putNull(r);
          }
          vectors[5].getChild(0).putNull(r);
          vectors[5].getChild(1).putNull(r);
          vectors[4].putArray(r, 0, 0);
          continue;
        }
        vectors[0].putInt(r, r * 10);
        byte[] text = ("s" + r).getBytes(StandardCharsets.UTF_8);
        vectors[1].putByteArray(r, text);
        vectors[2].putDecimal(r, Decimal.apply(r + 0.25), 20);
        vectors[3].putByteArray(r, new byte[] {(byte) r});
        vectors[4].putArray(r, r * 2, 2);
        ((OnHeapColumnVector) vectors[5].getChild(0)).putInt(r, -r);
        ((OnHeapColumnVector) vectors[5].getChild(1)).putByteArray(r, text);
      }
      arrayData.reserve(ROWS * 2);
      for (int i = 0; i < ROWS * 2; i++) {
        arrayData.putLong(i, 100L + i);
      }
      ColumnarBatch batch = new ColumnarBatch(vectors, ROWS);
      // rows 1, 3 (all null) and 5 live
      int[] selection = {1, 3, 5, -1, -1, -1};
      ColumnarBatch view = SelectedRowsVector.select(batch, selection, 3);

      assertThat(view.numRows()).isEqualTo(3);
      ColumnVector i = view.column(0);
      assertThat(i.getInt(0)).isEqualTo(10);
      assertThat(i.isNullAt(1)).isTrue();
      assertThat(i.getInt(2)).isEqualTo(50);
      assertThat(i.hasNull()).isTrue();
      assertThat(i.numNulls()).isEqualTo(1);
      assertThat(view.column(1).getUTF8String(2).toString()).isEqualTo("s5");
      assertThat(view.column(2).getDecimal(0, 20, 2).toString()).isEqualTo("1.25");
      assertThat(view.column(3).getBinary(2)).containsExactly(5);
      assertThat(view.column(4).getArray(2).toLongArray()).containsExactly(110L, 111L);
      assertThat(view.column(4).isNullAt(1)).isTrue();
      ColumnarRow struct = view.column(5).getStruct(2);
      assertThat(struct.getInt(0)).isEqualTo(-5);
      assertThat(struct.getUTF8String(1).toString()).isEqualTo("s5");
      assertThat(view.column(5).getChild(0).isNullAt(1)).isTrue();
      assertThat(view.getRow(0).getStruct(5, 2).getInt(0)).isEqualTo(-1);

      // a selection without nulls
      ColumnarBatch noNulls = SelectedRowsVector.select(batch, new int[] {0, 4}, 2);
      assertThat(noNulls.column(0).hasNull()).isFalse();
      assertThat(noNulls.column(0).numNulls()).isZero();
      // closing a view leaves the batch alone
      view.close();
      assertThat(batch.column(0).getInt(5)).isEqualTo(50);
    } finally {
      for (OnHeapColumnVector v : vectors) {
        v.close();
      }
    }
  }
}
