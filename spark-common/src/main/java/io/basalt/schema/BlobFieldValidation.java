package io.basalt.schema;

import io.basalt.BasaltException;
import io.basalt.blob.BlobValueCodec;
import io.basalt.options.BlobOptions;
import io.basalt.options.Options;
import io.basalt.options.RowTrackingOptions;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;

/**
 * The checks of option {@code blob-field}: its columns exist and hold bytes (BINARY, ARRAY<BINARY>
 * or MAP<K, BINARY>), and the table is an append table with row tracking and data evolution, as
 * Paimon requires of BLOB columns.
 */
final class BlobFieldValidation {
  private BlobFieldValidation() {}

  static void validate(TableSchema schema, Options options, String table) {
    if (options.getOptional(BlobOptions.BLOB_FIELD).isEmpty()) {
      return;
    }
    String key = BlobOptions.BLOB_FIELD.key();
    String value = options.get(BlobOptions.BLOB_FIELD);
    for (String name : names(value)) {
      DataField field = schema.field(name);
      if (field == null) {
        throw new BasaltException(
            String.format(
                "Column '%s' named in option '%s' = '%s' does not exist in table %s; its columns"
                    + " are %s. Fix: name existing BINARY columns in '%s' when creating the table;"
                    + " a BLOB column cannot be renamed or dropped afterwards.",
                name,
                key,
                value,
                table,
                schema.fields().stream().map(DataField::name).toList(),
                key));
      }
      if (!holdsBytes(field.type())) {
        throw new BasaltException(
            String.format(
                "Column '%s' of table %s named in option '%s' has type %s; a BLOB column must be"
                    + " BINARY, ARRAY<BINARY> or MAP<K, BINARY> with keys of type TINYINT,"
                    + " SMALLINT, INT, BIGINT, BOOLEAN, DECIMAL, DATE, STRING or BINARY (as in"
                    + " Paimon). Fix: remove it from '%s'.",
                name, table, key, field.type().simpleString(), key));
      }
    }
    long inBlobFiles =
        schema.fields().stream().filter(f -> names(value).contains(f.name())).count();
    if (inBlobFiles == schema.fields().size()) {
      throw new BasaltException(
          String.format(
              "Table %s would keep every column in .blob files (option '%s' = '%s'); a data file"
                  + " needs at least one other column. Fix: add a column such as an id.",
              table, key, value));
    }
    if (schema.hasPrimaryKey()) {
      throw new BasaltException(
          String.format(
              "Option '%s' is not allowed on primary-key table %s: BLOB columns need an append"
                  + " table. Fix: drop the primary key or remove '%s'.",
              key, table, key));
    }
    for (var needed :
        List.of(
            RowTrackingOptions.ROW_TRACKING_ENABLED, RowTrackingOptions.DATA_EVOLUTION_ENABLED)) {
      if (!options.get(needed)) {
        throw new BasaltException(
            String.format(
                "Option '%s' on table %s needs '%s' = 'true'. Fix: create the table with"
                    + " TBLPROPERTIES ('%s' = 'true', '%s' = 'true', '%s' = '%s').",
                key,
                table,
                needed.key(),
                RowTrackingOptions.ROW_TRACKING_ENABLED.key(),
                RowTrackingOptions.DATA_EVOLUTION_ENABLED.key(),
                key,
                value));
      }
    }
  }

  private static List<String> names(String value) {
    List<String> names = new ArrayList<>();
    for (String name : value.split(",")) {
      if (!name.isBlank()) {
        names.add(name.trim());
      }
    }
    return names;
  }

  private static boolean holdsBytes(DataType type) {
    return BlobValueCodec.of(type).isPresent();
  }
}
