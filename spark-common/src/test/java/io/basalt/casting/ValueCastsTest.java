package io.basalt.casting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.utils.CloseableIterator;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** Values of old files converted as Paimon's cast executors convert them. */
class ValueCastsTest {

  private static Object cast(DataType from, DataType to, Object value) {
    ValueCast cast = ValueCasts.resolve(from, to);
    assertThat(cast).as("a cast from %s to %s", from, to).isNotNull();
    return cast.cast(value);
  }

  private static UTF8String text(String value) {
    return UTF8String.fromString(value);
  }

  @Test
  void numbers() {
    assertThat(cast(DataTypes.LongType, DataTypes.DoubleType, 3_000_000_000L)).isEqualTo(3.0e9);
    // truncation towards zero, low bits on overflow, as Java's conversions
    assertThat(cast(DataTypes.DoubleType, DataTypes.IntegerType, -2.9)).isEqualTo(-2);
    assertThat(cast(DataTypes.LongType, DataTypes.IntegerType, 4_294_967_297L)).isEqualTo(1);
    assertThat(cast(DataTypes.IntegerType, DataTypes.ByteType, 300)).isEqualTo((byte) 44);
    Decimal d = Decimal.apply(new BigDecimal("12.75"));
    assertThat(cast(DataTypes.createDecimalType(4, 2), DataTypes.IntegerType, d)).isEqualTo(12);
    assertThat(cast(DataTypes.createDecimalType(4, 2), DataTypes.DoubleType, d)).isEqualTo(12.75);
    // to DECIMAL: half-up to the scale, null when the precision is too small
    assertThat(cast(DataTypes.DoubleType, DataTypes.createDecimalType(5, 1), 2.25).toString())
        .isEqualTo("2.3");
    assertThat(cast(DataTypes.LongType, DataTypes.createDecimalType(3, 0), 12345L)).isNull();
    assertThat(cast(DataTypes.BooleanType, DataTypes.IntegerType, true)).isEqualTo(1);
    assertThat(cast(DataTypes.IntegerType, DataTypes.BooleanType, 0)).isEqualTo(false);
  }

  @Test
  void toAndFromStrings() {
    assertThat(cast(DataTypes.IntegerType, DataTypes.StringType, 42)).isEqualTo(text("42"));
    assertThat(cast(DataTypes.DoubleType, DataTypes.StringType, 1.5)).isEqualTo(text("1.5"));
    assertThat(
            cast(
                DataTypes.createDecimalType(10, 2),
                DataTypes.StringType,
                Decimal.apply(new BigDecimal("1.50"))))
        .isEqualTo(text("1.50"));
    assertThat(cast(DataTypes.BooleanType, DataTypes.StringType, true)).isEqualTo(text("true"));
    assertThat(cast(DataTypes.DateType, DataTypes.StringType, 19_723))
        .isEqualTo(text("2024-01-01"));
    assertThat(cast(DataTypes.TimestampNTZType, DataTypes.StringType, 1_704_067_200_000_001L))
        .isEqualTo(text("2024-01-01 00:00:00.000001"));
    assertThat(cast(DataTypes.StringType, DataTypes.IntegerType, text(" 17 "))).isEqualTo(17);
    assertThat(cast(DataTypes.StringType, DataTypes.IntegerType, text("17.9"))).isEqualTo(17);
    assertThat(cast(DataTypes.StringType, DataTypes.DoubleType, text("2.5"))).isEqualTo(2.5);
    assertThat(cast(DataTypes.StringType, DataTypes.BooleanType, text("Yes"))).isEqualTo(true);
    assertThat(cast(DataTypes.StringType, DataTypes.DateType, text("2024-01-01")))
        .isEqualTo(19_723);
    assertThat(cast(DataTypes.StringType, DataTypes.TimestampNTZType, text("2024-01-01 00:00:01")))
        .isEqualTo(1_704_067_201_000_000L);
    assertThat(
            cast(DataTypes.StringType, DataTypes.createDecimalType(5, 2), text("3.14159"))
                .toString())
        .isEqualTo("3.14");
    assertThatThrownBy(() -> cast(DataTypes.StringType, DataTypes.IntegerType, text("abc")))
        .isInstanceOf(NumberFormatException.class)
        .hasMessage("Cannot parse 'abc' as INT.");
    assertThatThrownBy(() -> cast(DataTypes.StringType, DataTypes.ByteType, text("300")))
        .isInstanceOf(NumberFormatException.class)
        .hasMessage("Value '300' is out of range for TINYINT.");
    assertThatThrownBy(() -> cast(DataTypes.StringType, DataTypes.BooleanType, text("maybe")))
        .hasMessage("Cannot parse 'maybe' as BOOLEAN.");
    assertThatThrownBy(() -> cast(DataTypes.StringType, DataTypes.DateType, text("01/02/2024")))
        .hasMessage("Cannot parse '01/02/2024' as DATE.");
  }

  @Test
  void datesAndTimestamps() {
    long day = 86_400_000_000L;
    assertThat(cast(DataTypes.DateType, DataTypes.TimestampNTZType, 2)).isEqualTo(2 * day);
    assertThat(cast(DataTypes.TimestampNTZType, DataTypes.DateType, 2 * day + 5)).isEqualTo(2);
    assertThat(cast(DataTypes.LongType, DataTypes.TimestampNTZType, 60L)).isEqualTo(60_000_000L);
    assertThat(cast(DataTypes.TimestampNTZType, DataTypes.LongType, 61_500_000L)).isEqualTo(61L);
    // an instant and back through the JVM's zone is the same instant
    Object ntz = cast(DataTypes.TimestampType, DataTypes.TimestampNTZType, 1_000_000L);
    assertThat(cast(DataTypes.TimestampNTZType, DataTypes.TimestampType, ntz))
        .isEqualTo(1_000_000L);
  }

  @Test
  void nestedValuesConvertElementByElement() {
    StructType from = new StructType().add("a", DataTypes.IntegerType);
    StructType to = new StructType().add("a", DataTypes.LongType);
    Object converted =
        cast(
            DataTypes.createArrayType(from),
            DataTypes.createArrayType(to),
            new GenericArrayData(new Object[] {new GenericInternalRow(new Object[] {7}), null}));
    ArrayData array = (ArrayData) converted;
    assertThat(array.numElements()).isEqualTo(2);
    assertThat(array.getStruct(0, 1).getLong(0)).isEqualTo(7L);
    assertThat(array.isNullAt(1)).isTrue();
    assertThat(
            ValueCasts.resolve(
                DataTypes.createArrayType(DataTypes.IntegerType),
                DataTypes.createArrayType(DataTypes.DateType)))
        .isNull();
  }

  @Test
  void arraysMapsAndRowsPrintAsPaimonPrintsThem() {
    DataType ints = DataTypes.createArrayType(DataTypes.IntegerType);
    assertThat(cast(ints, DataTypes.StringType, new GenericArrayData(new Object[] {1, null, -3})))
        .isEqualTo(text("[1, null, -3]"));
    assertThat(cast(ints, DataTypes.StringType, new GenericArrayData(new Object[0])))
        .isEqualTo(text("[]"));
    DataType map =
        DataTypes.createMapType(
            DataTypes.StringType, DataTypes.createArrayType(DataTypes.DoubleType));
    Object mapValue =
        new ArrayBasedMapData(
            new GenericArrayData(new Object[] {text("a"), text("b")}),
            new GenericArrayData(
                new Object[] {new GenericArrayData(new Object[] {1.5, null}), null}));
    assertThat(cast(map, DataTypes.StringType, mapValue))
        .isEqualTo(text("{a -> [1.5, null], b -> null}"));
    StructType row =
        new StructType()
            .add("i", DataTypes.IntegerType)
            .add("s", DataTypes.StringType)
            .add("d", DataTypes.DateType)
            .add("n", new StructType().add("x", DataTypes.BooleanType));
    Object rowValue =
        new GenericInternalRow(
            new Object[] {7, text("abc"), 0, new GenericInternalRow(new Object[] {true})});
    assertThat(cast(row, DataTypes.StringType, rowValue))
        .isEqualTo(text("{7, abc, 1970-01-01, {true}}"));
    assertThat(
            cast(
                row,
                DataTypes.StringType,
                new GenericInternalRow(new Object[] {null, null, null, null})))
        .isEqualTo(text("{null, null, null, null}"));
  }

  @Test
  void castedRowsConvertChangedColumnsAndNameTheValueThatFails() {
    StructType fileType =
        new StructType().add("id", DataTypes.IntegerType).add("v", DataTypes.StringType);
    StructType readType =
        new StructType().add("id", DataTypes.IntegerType).add("v", DataTypes.IntegerType);
    List<InternalRow> rows = new ArrayList<>();
    rows.add(new GenericInternalRow(new Object[] {1, text("10")}));
    rows.add(new GenericInternalRow(new Object[] {2, null}));
    rows.add(new GenericInternalRow(new Object[] {3, text("x")}));
    CloseableIterator<InternalRow> casted =
        CastedRow.wrap(CloseableIterator.of(rows), fileType, readType, "Data file f of table t.");
    InternalRow first = casted.next();
    assertThat(first.getInt(0)).isEqualTo(1);
    assertThat(first.getInt(1)).isEqualTo(10);
    assertThat(first.copy().getInt(1)).isEqualTo(10);
    assertThat(casted.next().isNullAt(1)).isTrue();
    assertThatThrownBy(casted::next)
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Cannot read column 'v': the value 'x' stored as STRING (the column's type when the"
                + " file was written) does not convert to INT, the column's type since ALTER"
                + " TABLE. Fix: change the column back to STRING (ALTER TABLE ... ALTER COLUMN v"
                + " TYPE STRING), correct or delete that row, then change the type again. Data"
                + " file f of table t.: Cannot parse 'x' as INT.");
  }
}
