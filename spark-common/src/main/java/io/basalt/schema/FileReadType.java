package io.basalt.schema;

import javax.annotation.Nullable;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The schema to read a data file with when its columns may have had another type when it was
 * written: the read schema's fields (names, ids, order) with each type replaced by the type the
 * field of the same id had in the file's schema, nested struct fields included. Fields the file's
 * schema lacks keep their type (they read as null). {@link io.basalt.casting.CastedRow} then
 * converts the rows.
 */
public final class FileReadType {
  private FileReadType() {}

  /**
   * {@code readType} with the types of {@code fileSchema} (the schema the file was written with,
   * its fields carrying ids); the same instance when no type differs.
   */
  public static StructType of(StructType readType, StructType fileSchema) {
    StructType result = struct(readType, fileSchema);
    return result.equals(readType) ? readType : result;
  }

  /**
   * Whether every column type of {@code fileType} (from {@link #of}) that differs from {@code
   * readType} is a widening ({@link TypeWidening}), which Parquet readers up-cast themselves.
   */
  public static boolean onlyWidened(DataType fileType, DataType readType) {
    if (fileType instanceof StructType f && readType instanceof StructType r) {
      for (int i = 0; i < r.size(); i++) {
        if (!onlyWidened(f.fields()[i].dataType(), r.fields()[i].dataType())) {
          return false;
        }
      }
      return true;
    } else if (fileType instanceof ArrayType f && readType instanceof ArrayType r) {
      return onlyWidened(f.elementType(), r.elementType());
    } else if (fileType instanceof MapType f && readType instanceof MapType r) {
      return onlyWidened(f.keyType(), r.keyType()) && onlyWidened(f.valueType(), r.valueType());
    }
    return TypeWidening.isAllowed(fileType, readType);
  }

  private static StructType struct(StructType read, StructType file) {
    StructField[] fields = read.fields().clone();
    for (int i = 0; i < fields.length; i++) {
      StructField field = fields[i];
      StructField old = byId(file, field);
      if (old != null) {
        fields[i] =
            new StructField(
                field.name(),
                type(field.dataType(), old.dataType()),
                field.nullable(),
                field.metadata());
      }
    }
    return new StructType(fields);
  }

  private static DataType type(DataType read, DataType file) {
    if (read instanceof StructType r && file instanceof StructType f) {
      return struct(r, f);
    } else if (read instanceof ArrayType r && file instanceof ArrayType f) {
      return new ArrayType(type(r.elementType(), f.elementType()), r.containsNull());
    } else if (read instanceof MapType r && file instanceof MapType f) {
      return new MapType(
          type(r.keyType(), f.keyType()),
          type(r.valueType(), f.valueType()),
          r.valueContainsNull());
    }
    return file;
  }

  @Nullable
  private static StructField byId(StructType file, StructField field) {
    if (!field.metadata().contains(DataField.FIELD_ID_KEY)) {
      return null;
    }
    int id = DataField.fieldId(field);
    for (StructField candidate : file.fields()) {
      if (candidate.metadata().contains(DataField.FIELD_ID_KEY)
          && DataField.fieldId(candidate) == id) {
        return candidate;
      }
    }
    return null;
  }
}
