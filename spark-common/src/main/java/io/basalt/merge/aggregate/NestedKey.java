package io.basalt.merge.aggregate;

import io.basalt.BasaltException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The key of the elements of an {@code ARRAY<STRUCT>} column, from {@code fields.<f>.nested-key}
 * (comma-separated struct fields). Without the option the whole element is its key.
 */
final class NestedKey implements Serializable {
  static final String OPTION = "nested-key";
  private static final long serialVersionUID = 1L;

  private final int[] ordinals;
  private final boolean declared;
  private final ValueKeys keys;

  private NestedKey(int[] ordinals, boolean declared, DataType[] types) {
    this.ordinals = ordinals;
    this.declared = declared;
    this.keys = new ValueKeys(types);
  }

  /** Reads the option for the column of {@code context}, whose type is an array of structs. */
  static NestedKey of(AggregatorContext context, boolean required) {
    StructType element = (StructType) ((ArrayType) context.type()).elementType();
    String raw = context.fieldString(OPTION, "").trim();
    if (raw.isEmpty()) {
      if (required) {
        throw missing(context);
      }
      int[] all = new int[element.fields().length];
      Arrays.setAll(all, i -> i);
      return new NestedKey(all, false, types(element, all));
    }
    List<Integer> ordinals = new ArrayList<>();
    for (String name : raw.split(",")) {
      ordinals.add(ordinal(context, element, name.trim()));
    }
    int[] keyOrdinals = ordinals.stream().mapToInt(Integer::intValue).toArray();
    return new NestedKey(keyOrdinals, true, types(element, keyOrdinals));
  }

  /** Whether {@code fields.<f>.nested-key} names the key (else the whole element is the key). */
  boolean declared() {
    return declared;
  }

  /** The owned key of {@code element}. */
  UnsafeRow keyOf(InternalRow element) {
    return keys.keyOf(element, ordinals);
  }

  private static DataType[] types(StructType element, int[] ordinals) {
    DataType[] types = new DataType[ordinals.length];
    for (int i = 0; i < ordinals.length; i++) {
      types[i] = element.fields()[ordinals[i]].dataType();
    }
    return types;
  }

  private static int ordinal(AggregatorContext context, StructType element, String name) {
    StructField[] fields = element.fields();
    for (int i = 0; i < fields.length; i++) {
      if (fields[i].name().equalsIgnoreCase(name)) {
        return i;
      }
    }
    throw new BasaltException(
        String.format(
            "Option '%s' of table %s names '%s', which is not a field of the elements of column"
                + " '%s' (%s). Fix: list fields of %s, comma-separated.",
            context.fieldKey(OPTION),
            context.table(),
            name,
            context.field(),
            element.sql(),
            element.sql()));
  }

  private static BasaltException missing(AggregatorContext context) {
    return new BasaltException(
        String.format(
            "Aggregate function '%s' of column '%s' in table %s needs the key of the array"
                + " elements. Fix: set '%s' to the element fields that identify an element,"
                + " comma-separated.",
            context.functionName(), context.field(), context.table(), context.fieldKey(OPTION)));
  }
}
