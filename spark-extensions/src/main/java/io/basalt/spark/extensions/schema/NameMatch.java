package io.basalt.spark.extensions.schema;

import javax.annotation.Nullable;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** How a write's column names meet the table's: exactly, or ignoring case (Spark's default). */
record NameMatch(boolean caseSensitive) {

  boolean same(String a, String b) {
    return caseSensitive ? a.equals(b) : a.equalsIgnoreCase(b);
  }

  /** The field of {@code struct} named {@code name}, or null. */
  @Nullable
  StructField find(StructType struct, String name) {
    for (StructField field : struct.fields()) {
      if (same(field.name(), name)) {
        return field;
      }
    }
    return null;
  }

  /** The position of the field named {@code name} in {@code struct}, or -1. */
  int indexOf(StructType struct, String name) {
    StructField[] fields = struct.fields();
    for (int i = 0; i < fields.length; i++) {
      if (same(fields[i].name(), name)) {
        return i;
      }
    }
    return -1;
  }
}
