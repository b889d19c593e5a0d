package io.basalt.changelog;

import io.basalt.BasaltException;
import io.basalt.data.ProjectedRow;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.options.ChangelogOptions;
import io.basalt.options.Options;
import io.basalt.schema.DataField;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code changelog-producer.row-deduplicate}: tells whether a before and an after image of one key
 * carry the same values, so that a producer comparing images can drop the {@code -U/+U} pair. The
 * columns named in {@code changelog-producer.row-deduplicate-ignore-fields} are left out of the
 * comparison. Values are compared by their binary form. Not thread-safe (reuses its buffers).
 */
public final class RowValueComparison {
  /** Paimon's option naming columns the comparison ignores (comma-separated). */
  public static final String IGNORE_FIELDS = ChangelogOptions.ROW_DEDUPLICATE_IGNORE_FIELDS.key();

  private final ProjectedRow beforeView;
  private final ProjectedRow afterView;
  private final UnsafeProjection beforeBytes;
  private final UnsafeProjection afterBytes;

  private RowValueComparison(DataType[] types, int[] indices) {
    this.beforeView = new ProjectedRow(types, indices);
    this.afterView = new ProjectedRow(types, indices);
    StructField[] fields = new StructField[types.length];
    for (int i = 0; i < types.length; i++) {
      fields[i] = new StructField("f" + i, types[i], true, Metadata.empty());
    }
    this.beforeBytes = UnsafeProjection.create(new StructType(fields));
    this.afterBytes = UnsafeProjection.create(new StructType(fields));
  }

  /**
   * The comparison of key-value rows of {@code layout}, or null when the table does not ask for row
   * deduplication.
   *
   * @throws BasaltException when the ignore-fields option names a column the table lacks
   */
  @Nullable
  public static RowValueComparison of(KeyValueLayout layout, Options options, String table) {
    if (!options.get(ChangelogOptions.ROW_DEDUPLICATE)) {
      return null;
    }
    Set<String> ignored = ignoredFields(layout, options, table);
    List<DataField> values = layout.valueFields();
    List<Integer> compared = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      if (!ignored.contains(values.get(i).name())) {
        compared.add(i);
      }
    }
    DataType[] types = new DataType[compared.size()];
    int[] indices = new int[compared.size()];
    for (int i = 0; i < indices.length; i++) {
      indices[i] = layout.valueOffset() + compared.get(i);
      types[i] = values.get(compared.get(i)).type();
    }
    return new RowValueComparison(types, indices);
  }

  private static Set<String> ignoredFields(KeyValueLayout layout, Options options, String table) {
    Set<String> ignored = new LinkedHashSet<>();
    String raw = options.raw(IGNORE_FIELDS).orElse("").trim();
    if (raw.isEmpty()) {
      return ignored;
    }
    List<String> names = layout.valueFields().stream().map(DataField::name).toList();
    for (String part : raw.split(",")) {
      String name = part.trim();
      if (!names.contains(name)) {
        throw new BasaltException(
            String.format(
                "Table %s: '%s' = '%s' names column '%s', which the table does not have (its"
                    + " columns: %s). Fix: list only existing columns, comma-separated.",
                table, IGNORE_FIELDS, raw, name, String.join(", ", names)));
      }
      ignored.add(name);
    }
    return ignored;
  }

  /** Whether the compared value columns of two key-value rows are equal. */
  public boolean sameValues(InternalRow before, InternalRow after) {
    return beforeBytes
        .apply(beforeView.replace(before))
        .equals(afterBytes.apply(afterView.replace(after)));
  }
}
