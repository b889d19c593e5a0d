package io.basalt.format;

import io.basalt.schema.DataField;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Chooses the Parquet columns a read needs. Requested fields are matched to file fields by field id
 * when the file's fields carry ids, and by name otherwise; requested fields missing from the file
 * are left out (they read as null). Nested structs are projected the same way.
 */
final class ReadProjection {
  private ReadProjection() {}

  /** The subset of {@code fileSchema} needed to produce rows of {@code readSchema}. */
  static MessageType requestedSchema(MessageType fileSchema, StructType readSchema) {
    return new MessageType(fileSchema.getName(), projectFields(fileSchema, readSchema, false));
  }

  /** The index in {@code group} of the field matching {@code field}, or -1. */
  static int find(GroupType group, StructField field) {
    boolean byId = hasIds(group) && field.metadata().contains(DataField.FIELD_ID_KEY);
    int id = byId ? DataField.fieldId(field) : 0;
    List<Type> fields = group.getFields();
    for (int i = 0; i < fields.size(); i++) {
      Type candidate = fields.get(i);
      boolean matches =
          byId ? candidate.getId().intValue() == id : candidate.getName().equals(field.name());
      if (matches) {
        return i;
      }
    }
    return -1;
  }

  /** Whether {@code list} uses the standard 3-level layout (repeated group with one element). */
  static boolean isThreeLevelList(GroupType list) {
    Type repeated = list.getType(0);
    if (repeated.isPrimitive()) {
      return false;
    }
    GroupType group = repeated.asGroupType();
    return group.getFieldCount() == 1
        && !repeated.getName().equals("array")
        && !repeated.getName().endsWith("_tuple");
  }

  /** The element type of a LIST group, in either the 3-level or the legacy 2-level layout. */
  static Type listElement(GroupType list) {
    return isThreeLevelList(list) ? list.getType(0).asGroupType().getType(0) : list.getType(0);
  }

  private static boolean hasIds(GroupType group) {
    return group.getFieldCount() > 0 && group.getType(0).getId() != null;
  }

  private static List<Type> projectFields(
      GroupType fileGroup, StructType readType, boolean nested) {
    List<Type> result = new ArrayList<>();
    for (StructField field : readType.fields()) {
      int index = find(fileGroup, field);
      if (index >= 0) {
        result.add(project(fileGroup.getType(index), field.dataType()));
      }
    }
    if (result.isEmpty() && nested) {
      // Parquet groups cannot be empty; read one file column to learn whether the struct is null
      result.add(fileGroup.getType(0));
    }
    return result;
  }

  /** {@code fileType} cut down to what {@code readType} needs. */
  private static Type project(Type fileType, DataType readType) {
    if (fileType.isPrimitive()) {
      return fileType;
    }
    GroupType group = fileType.asGroupType();
    LogicalTypeAnnotation annotation = group.getLogicalTypeAnnotation();
    if (readType instanceof StructType struct && !isListOrMap(annotation)) {
      return group.withNewFields(projectFields(group, struct, true));
    } else if (readType instanceof ArrayType array
        && annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      if (!isThreeLevelList(group)) {
        return group.withNewFields(project(group.getType(0), array.elementType()));
      }
      GroupType repeated = group.getType(0).asGroupType();
      Type element = project(repeated.getType(0), array.elementType());
      return group.withNewFields(repeated.withNewFields(element));
    } else if (readType instanceof MapType map
        && annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation) {
      GroupType keyValue = group.getType(0).asGroupType();
      List<Type> children = new ArrayList<>();
      children.add(project(keyValue.getType(0), map.keyType()));
      if (keyValue.getFieldCount() > 1) {
        children.add(project(keyValue.getType(1), map.valueType()));
      }
      return group.withNewFields(keyValue.withNewFields(children));
    }
    // a type mismatch: keep the file type and let the converter report it
    return fileType;
  }

  private static boolean isListOrMap(@Nullable LogicalTypeAnnotation annotation) {
    return annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation
        || annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation;
  }
}
