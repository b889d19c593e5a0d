package io.basalt.mergetree;

import io.basalt.data.RowComparator;
import io.basalt.options.Options;
import io.basalt.options.TableOptions;
import io.basalt.schema.DataField;
import io.basalt.schema.SchemaValidation;
import io.basalt.schema.TableSchema;
import java.io.Serializable;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Orders the versions of one key from oldest to newest: by the {@code sequence.field} columns first
 * (reversed when {@code sequence.field.sort-order} is descending), then by the sequence number.
 * Without sequence fields only the sequence number counts.
 */
public final class SequenceOrder implements Serializable {
  private static final long serialVersionUID = 1L;

  private final List<String> fields;
  private final boolean descending;

  private SequenceOrder(List<String> fields, boolean descending) {
    this.fields = List.copyOf(fields);
    this.descending = descending;
  }

  /**
   * The order of a table, validated.
   *
   * @throws BasaltException when a sequence field does not exist or cannot be ordered
   */
  public static SequenceOrder of(TableSchema schema, Options options, String table) {
    List<String> fields = SchemaValidation.sequenceFields(schema, options, table);
    boolean descending = "descending".equals(options.get(TableOptions.SEQUENCE_FIELD_SORT_ORDER));
    return new SequenceOrder(fields, descending);
  }

  /** The order of tables without sequence fields: by sequence number only. */
  public static Comparator<InternalRow> bySequenceNumber(KeyValueLayout layout) {
    int sequenceIndex = layout.sequenceIndex();
    return Comparator.comparingLong(row -> row.getLong(sequenceIndex));
  }

  /** The sequence fields, in priority order. */
  public List<String> fields() {
    return fields;
  }

  /**
   * The version order of key-value rows whose value columns are {@code values}, starting at {@code
   * layout.valueOffset()}; {@code values} must hold every sequence field.
   */
  public Comparator<InternalRow> comparator(KeyValueLayout layout, List<DataField> values) {
    Comparator<InternalRow> bySequenceNumber = bySequenceNumber(layout);
    if (fields.isEmpty()) {
      return bySequenceNumber;
    }
    Comparator<InternalRow> byFields = null;
    for (String name : fields) {
      int position = -1;
      for (int i = 0; i < values.size(); i++) {
        if (values.get(i).name().equals(name)) {
          position = layout.valueOffset() + i;
        }
      }
      if (position < 0) {
        throw new IllegalArgumentException("Sequence field " + name + " is not read");
      }
      DataField field = values.get(position - layout.valueOffset());
      Comparator<InternalRow> one = new RowComparator(List.of(field.type()), position);
      if (descending) {
        one = one.reversed();
      }
      byFields = byFields == null ? one : byFields.thenComparing(one);
    }
    return byFields.thenComparing(bySequenceNumber);
  }
}
