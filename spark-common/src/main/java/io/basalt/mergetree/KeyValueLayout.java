package io.basalt.mergetree;

import io.basalt.data.RowComparator;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The column layout of primary-key data files (format-notes.md section 6.2): the trimmed key as
 * {@code _KEY_<name>} columns, then {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, then every table
 * column. Key-value rows in memory use the same layout, possibly with fewer value columns.
 */
public final class KeyValueLayout implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Field ids of key columns are this plus the column's own id. */
  public static final int KEY_FIELD_ID_START = Integer.MAX_VALUE / 2;

  public static final String KEY_PREFIX = "_KEY_";
  public static final String SEQUENCE_NUMBER = "_SEQUENCE_NUMBER";
  public static final String VALUE_KIND = "_VALUE_KIND";
  public static final int SEQUENCE_NUMBER_ID = Integer.MAX_VALUE - 1;
  public static final int VALUE_KIND_ID = Integer.MAX_VALUE - 2;

  private final List<DataField> keyFields;
  private final List<DataField> valueFields;
  private final int[] keyIndicesInValue;

  public KeyValueLayout(TableSchema schema) {
    this.valueFields = schema.fields();
    List<String> keys = schema.trimmedPrimaryKeys();
    this.keyFields = new ArrayList<>(keys.size());
    this.keyIndicesInValue = new int[keys.size()];
    for (int i = 0; i < keys.size(); i++) {
      DataField field = schema.field(keys.get(i));
      keyFields.add(
          field
              .withIdAndName(KEY_FIELD_ID_START + field.id(), KEY_PREFIX + field.name())
              .asNotNull());
      keyIndicesInValue[i] = schema.fieldIndex(keys.get(i));
    }
  }

  /** Every table column, the value columns of files. */
  public List<DataField> valueFields() {
    return valueFields;
  }

  public int keyArity() {
    return keyFields.size();
  }

  public int sequenceIndex() {
    return keyFields.size();
  }

  public int kindIndex() {
    return keyFields.size() + 1;
  }

  /** Where the value columns start in a key-value row. */
  public int valueOffset() {
    return keyFields.size() + 2;
  }

  /** For each key column, its position among the table columns. */
  public int[] keyIndicesInValue() {
    return keyIndicesInValue.clone();
  }

  public List<DataType> keyTypes() {
    List<DataType> types = new ArrayList<>(keyFields.size());
    for (DataField field : keyFields) {
      types.add(field.type());
    }
    return types;
  }

  /**
   * The key columns as a schema ({@code _KEY_} names), each timestamp with its Paimon precision:
   * what the codec of min/max keys needs.
   */
  public StructType keyType() {
    StructField[] fields = new StructField[keyFields.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = keyFields.get(i).toStructField();
    }
    return new StructType(fields);
  }

  /** The key order of key-value rows. */
  public RowComparator keyComparator() {
    return new RowComparator(keyTypes());
  }

  /** The schema of the files: keys, sequence, kind and every table column. */
  public StructType fileSchema() {
    return schemaWithValues(valueFields);
  }

  /** The schema to read from files when only {@code values} are needed. */
  public StructType schemaWithValues(List<DataField> values) {
    List<StructField> fields = new ArrayList<>();
    for (DataField key : keyFields) {
      fields.add(key.toStructField());
    }
    fields.add(
        new DataField(SEQUENCE_NUMBER_ID, SEQUENCE_NUMBER, DataTypes.LongType, false, null)
            .toStructField());
    fields.add(
        new DataField(VALUE_KIND_ID, VALUE_KIND, DataTypes.ByteType, false, null).toStructField());
    for (DataField value : values) {
      fields.add(value.toStructField());
    }
    return new StructType(fields.toArray(new StructField[0]));
  }
}
