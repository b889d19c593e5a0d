package io.basalt.changelog;

import io.basalt.BasaltException;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.Options;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code changelog-producer.row-deduplicate} settings of a table: whether a producer that
 * compares before and after images drops {@code -U/+U} pairs whose values are equal, and which
 * columns ({@code changelog-producer.row-deduplicate-ignore-fields}) that comparison leaves out.
 *
 * @param enabled whether equal pairs are dropped
 * @param ignoredFields the column names left out of the comparison, in the order given
 */
public record RowDeduplicate(boolean enabled, Set<String> ignoredFields) {
  public RowDeduplicate {
    ignoredFields = Set.copyOf(ignoredFields);
  }

  /**
   * Reads and checks the settings of a table definition.
   *
   * @throws BasaltException when the ignored fields name a column the table does not have, naming
   *     the option, the column and the fix
   */
  public static RowDeduplicate of(TableSchema schema, Options options, String table) {
    boolean enabled = options.get(ChangelogOptions.ROW_DEDUPLICATE);
    Set<String> ignored = new LinkedHashSet<>();
    String raw = options.getOptional(ChangelogOptions.ROW_DEDUPLICATE_IGNORE_FIELDS).orElse("");
    for (String part : raw.split(",")) {
      String name = part.trim();
      if (name.isEmpty()) {
        continue;
      }
      if (schema.field(name) == null) {
        throw unknownField(schema, table, name);
      }
      ignored.add(name);
    }
    return new RowDeduplicate(enabled, ignored);
  }

  private static BasaltException unknownField(TableSchema schema, String table, String name) {
    List<String> columns = new ArrayList<>();
    for (DataField field : schema.fields()) {
      columns.add(field.name());
    }
    String key = ChangelogOptions.ROW_DEDUPLICATE_IGNORE_FIELDS.key();
    return new BasaltException(
        String.format(
            "Table %s has '%s' naming column '%s', which the table does not have (its columns: %s)."
                + " Fix: ALTER TABLE %s SET TBLPROPERTIES ('%s' = '<columns of the table>'), or"
                + " UNSET it.",
            table, key, name, String.join(", ", columns), table, key));
  }
}
