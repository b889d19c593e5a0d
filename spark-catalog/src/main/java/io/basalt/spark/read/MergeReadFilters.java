package io.basalt.spark.read;

import io.basalt.blob.BlobColumns;
import io.basalt.mergetree.KeyValueLayout;
import io.basalt.options.TableOptions;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringStartsWith;

/**
 * The pushed filters a row read (a merge of a bucket's sorted runs) may skip Parquet row groups and
 * pages with: those on primary-key columns only, renamed to the {@code _KEY_} columns of key-value
 * files. Every version of a key, retractions included, carries the key in those columns, so a
 * skipped range loses all versions of keys that cannot match, and nothing else: the merge of a key
 * that may match sees all its versions. A value column could not be used: a newer version of a row
 * in a skipped group could hide an older one that matches, and a retraction's value columns need
 * not hold the row's values.
 *
 * <p>The row read also counts row positions for deletion vectors, the row index, row tracking and
 * BLOB files; with any of those, no filter is used.
 */
final class MergeReadFilters {
  private MergeReadFilters() {}

  /** The key filters of {@code pushed} for row reads of {@code table}; empty when unsafe. */
  static Filter[] of(FileStoreTable table, Filter[] pushed, MetadataColumns metadata) {
    if (!table.hasPrimaryKey()
        || table.options().get(TableOptions.DELETION_VECTORS_ENABLED)
        || !BlobColumns.of(table.rowType(), table.options()).isEmpty()
        || metadata.rowIndex()
        || metadata.rowTracking()) {
      return new Filter[0];
    }
    Set<String> keys = Set.copyOf(table.schema().trimmedPrimaryKeys());
    List<Filter> result = new ArrayList<>();
    for (Filter filter : pushed) {
      Filter renamed = keys.containsAll(List.of(filter.references())) ? toKeyColumns(filter) : null;
      if (renamed != null) {
        result.add(renamed);
      }
    }
    return result.toArray(new Filter[0]);
  }

  /** {@code filter} over the {@code _KEY_} columns, or null for a filter it does not know. */
  @Nullable
  static Filter toKeyColumns(Filter filter) {
    if (filter instanceof And and) {
      Filter left = toKeyColumns(and.left());
      Filter right = toKeyColumns(and.right());
      return left == null || right == null ? null : new And(left, right);
    } else if (filter instanceof Or or) {
      Filter left = toKeyColumns(or.left());
      Filter right = toKeyColumns(or.right());
      return left == null || right == null ? null : new Or(left, right);
    } else if (filter instanceof EqualTo f) {
      return new EqualTo(key(f.attribute()), f.value());
    } else if (filter instanceof EqualNullSafe f) {
      return new EqualNullSafe(key(f.attribute()), f.value());
    } else if (filter instanceof GreaterThan f) {
      return new GreaterThan(key(f.attribute()), f.value());
    } else if (filter instanceof GreaterThanOrEqual f) {
      return new GreaterThanOrEqual(key(f.attribute()), f.value());
    } else if (filter instanceof LessThan f) {
      return new LessThan(key(f.attribute()), f.value());
    } else if (filter instanceof LessThanOrEqual f) {
      return new LessThanOrEqual(key(f.attribute()), f.value());
    } else if (filter instanceof In f) {
      return new In(key(f.attribute()), f.values());
    } else if (filter instanceof IsNull f) {
      return new IsNull(key(f.attribute()));
    } else if (filter instanceof IsNotNull f) {
      return new IsNotNull(key(f.attribute()));
    } else if (filter instanceof StringStartsWith f) {
      return new StringStartsWith(key(f.attribute()), f.value());
    }
    return null; // NOT and the rest: not needed for pruning, and not worth the risk
  }

  private static String key(String column) {
    return KeyValueLayout.KEY_PREFIX + column;
  }
}
