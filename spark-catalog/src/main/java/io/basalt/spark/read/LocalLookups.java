package io.basalt.spark.read;

import io.basalt.format.DataFileFormat;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.scan.TableScan;
import io.basalt.predicate.ExactLiterals;
import io.basalt.predicate.FiniteKeys;
import io.basalt.predicate.Leaf;
import io.basalt.predicate.Predicate;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import io.basalt.table.DataSplit;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.DataType;

/**
 * Decides whether a read is a point lookup that the driver answers itself ({@link
 * LocalLookupScan}), so the query runs no Spark job at all: for a lookup, scheduling one job and
 * shipping its task costs more than reading the few pages that hold the keys.
 *
 * <p>A read is a lookup when its result is small by construction: the table has a primary key, the
 * pushed filters fix every primary-key column outside the partition columns to at most {@value
 * #MAX_KEYS} value tuples ({@code =}, {@code IN}, and AND/OR of them), so each partition holds at
 * most that many matching rows; and the plan touches at most {@value #MAX_FILES} files (session
 * conf {@value #MAX_FILES_CONF}), all Parquet. Few files bound the number of partitions the result
 * comes from, and Parquet's statistics and page indexes let both the raw and the merged read skip
 * to the pages that can hold the keys, so what the driver reads does not grow with file size. The
 * session conf {@value #ENABLED} = false turns lookups off.
 */
final class LocalLookups {
  /** Session conf: whether point lookups are answered on the driver (default true). */
  static final String ENABLED = "spark.basalt.read.local-lookup.enabled";

  /** Session conf: the most files a lookup answered on the driver may touch. */
  static final String MAX_FILES_CONF = "spark.basalt.read.local-lookup.max-files";

  /**
   * Default of {@value #MAX_FILES_CONF}. The driver reads files one after another, each costing a
   * footer and the key's pages (a few milliseconds on local disk); a Spark job costs tens of
   * milliseconds before its task reads anything. Sixteen files keep the driver's read well under
   * the cost of the job on local storage, and cover one bucket per partition with a few sorted
   * runs.
   */
  static final int MAX_FILES = 16;

  /** The most primary-key value tuples a lookup may ask for. */
  static final int MAX_KEYS = 1000;

  private LocalLookups() {}

  /**
   * The plan of the lookup that {@code filter} (the pushed filters) makes of {@code table}, or
   * empty when the read is not a bounded lookup or lookups are off.
   */
  static Optional<TableScan.Plan> plan(
      FileStoreTable table, @Nullable Predicate filter, @Nullable Predicate bucketFilter) {
    if (!enabled() || !table.hasPrimaryKey() || filter == null || !keysFixed(table, filter)) {
      return Optional.empty();
    }
    TableScan scan =
        table.newScan().withFilter(filter).withBucketFilter(bucketFilter).withDriverManifestCache();
    table.timeTravelSnapshot().ifPresent(scan::withSnapshot);
    TableScan.Plan plan = scan.plan();
    int files = 0;
    for (DataSplit split : plan.splits()) {
      for (DataFileMeta file : split.files()) {
        files++;
        if (!isParquet(file)) {
          return Optional.empty();
        }
      }
    }
    return files <= maxFiles() ? Optional.of(plan) : Optional.empty();
  }

  private static boolean enabled() {
    return Boolean.parseBoolean(SQLConf.get().getConfString(ENABLED, "true"));
  }

  private static int maxFiles() {
    String value = SQLConf.get().getConfString(MAX_FILES_CONF, String.valueOf(MAX_FILES));
    try {
      int max = Integer.parseInt(value.trim());
      if (max >= 0) {
        return max;
      }
    } catch (NumberFormatException e) {
      // reported below, with the value
    }
    throw new IllegalArgumentException(
        String.format(
            "Invalid value '%s' for session conf %s: expected a non-negative number of files."
                + " Fix: SET %s = %d (or 0 to answer no lookup on the driver).",
            value, MAX_FILES_CONF, MAX_FILES_CONF, MAX_FILES));
  }

  /** Whether {@code filter} fixes every primary-key column outside the partition columns. */
  private static boolean keysFixed(FileStoreTable table, Predicate filter) {
    TableSchema schema = table.schema();
    List<String> keys = schema.trimmedPrimaryKeys();
    if (keys.isEmpty()) {
      return false;
    }
    List<DataType> types = new ArrayList<>();
    for (DataField field : schema.fields(keys)) {
      types.add(field.toStructField().dataType());
    }
    return FiniteKeys.of(filter, keys, types, MAX_KEYS).isPresent();
  }

  private static boolean isParquet(DataFileMeta file) {
    return DataFileFormat.ofFileName(file.fileName())
        .map(format -> format == DataFileFormat.PARQUET)
        .orElse(false);
  }

  /**
   * {@code predicate} with its literals converted to the exact values of its columns, when the
   * driver can evaluate it with Spark's semantics ({@link io.basalt.predicate.ValueEvaluator}):
   * equality, IN and null tests on table columns whose literals convert exactly (not FLOAT or
   * DOUBLE, not strings with a non-binary collation, not CHAR). Spark then need not evaluate it
   * again. Empty for anything else, which Spark keeps evaluating.
   */
  static Optional<Predicate> exactForm(Predicate predicate, TableSchema schema) {
    if (predicate instanceof Predicate.And and) {
      return both(exactForm(and.left(), schema), exactForm(and.right(), schema), true);
    }
    if (predicate instanceof Predicate.Or or) {
      return both(exactForm(or.left(), schema), exactForm(or.right(), schema), false);
    }
    Leaf leaf = (Leaf) predicate;
    if (schema.field(leaf.column()) == null) {
      return Optional.empty(); // the bucket id or a metadata column
    }
    DataType type = leaf.type();
    switch (leaf.op()) {
      case IS_NULL, IS_NOT_NULL -> {
        return Optional.of(new Leaf(leaf.column(), type, leaf.op(), List.of()));
      }
      case EQ, IN -> {
        List<Object> values = new ArrayList<>();
        for (Object literal : leaf.literals()) {
          Optional<Object> exact = ExactLiterals.convert(literal, type);
          if (exact.isEmpty()) {
            return Optional.empty();
          }
          values.add(exact.get());
        }
        return Optional.of(new Leaf(leaf.column(), type, leaf.op(), values));
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  private static Optional<Predicate> both(
      Optional<Predicate> left, Optional<Predicate> right, boolean and) {
    if (left.isEmpty() || right.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        and
            ? new Predicate.And(left.get(), right.get())
            : new Predicate.Or(left.get(), right.get()));
  }
}
