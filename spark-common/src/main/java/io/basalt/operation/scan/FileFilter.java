package io.basalt.operation.scan;

import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.ManifestEntry;
import io.basalt.merge.MergeEngineRules;
import io.basalt.predicate.ColumnStatistics;
import io.basalt.predicate.StatsEvaluator;
import io.basalt.rowtracking.RowIdRange;
import io.basalt.rowtracking.RowTracking;
import io.basalt.schema.DataField;
import io.basalt.schema.TableSchema;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Applies key and value statistics to the files of one bucket. */
final class FileFilter {
  private final boolean primaryKey;
  private final boolean valueFiltersApply;
  private final ScanFilters filters;
  @Nullable private final StatsView keyStats;

  private final FileValueStats valueStats;
  private final TableSchema schema;
  private final boolean rowTracking;
  private long planned;
  private long skipped;
  private long bucketsSkipped;

  /**
   * @param deletionVectors whether the scan reads deletion-vector files, whose rows are final
   */
  FileFilter(FileStoreTable table, ScanFilters filters, boolean deletionVectors) {
    this.schema = table.schema();
    this.primaryKey = table.hasPrimaryKey();
    // deletion-vector files hold final rows; otherwise the engine says whether one version's
    // statistics may decide for the merged row
    this.valueFiltersApply =
        !primaryKey || deletionVectors || MergeEngineRules.of(table.options()).valueFiltersSafe();
    this.filters = filters;
    this.keyStats = primaryKey ? new StatsView(columns(schema.trimmedPrimaryKeys())) : null;
    this.valueStats = new FileValueStats(schema, table.schemaManager()::schema);
    this.rowTracking = RowTracking.enabled(table.options());
  }

  private StructType columns(List<String> names) {
    List<StructField> fields = new ArrayList<>();
    for (DataField field : schema.fields(names)) {
      fields.add(field.toStructField());
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  List<DataFileMeta> select(List<ManifestEntry> group) {
    List<DataFileMeta> files = new ArrayList<>();
    boolean anyValueMatch = filters.value() == null || !valueFiltersApply;
    for (ManifestEntry entry : group) {
      DataFileMeta file = entry.file();
      boolean keep = keyMayMatch(file);
      boolean valueMatch = keep && valueMayMatch(file);
      if (!primaryKey) {
        keep = keep && valueMatch;
      }
      anyValueMatch |= valueMatch;
      if (keep) {
        files.add(file);
      } else {
        skipped++;
      }
    }
    if (primaryKey && !anyValueMatch) {
      // no version of any row in this bucket can match: skip the bucket as a whole
      skipped += files.size();
      bucketsSkipped++;
      return List.of();
    }
    planned += files.size();
    return files;
  }

  long planned() {
    return planned;
  }

  long skipped() {
    return skipped;
  }

  long bucketsSkipped() {
    return bucketsSkipped;
  }

  private boolean keyMayMatch(DataFileMeta file) {
    if (filters.key() == null || keyStats == null) {
      return true;
    }
    return StatsEvaluator.mayMatch(
        filters.key(), keyStats.decode(file.keyStats()), file.rowCount());
  }

  private boolean valueMayMatch(DataFileMeta file) {
    if (filters.value() == null) {
      return true;
    }
    // stats are laid out by the file's own schema, which may be older than the one read
    Function<String, ColumnStatistics> stats = valueStats.decode(file);
    if (rowTracking) {
      // filters on row ids skip files by the range of ids they hold
      Function<String, ColumnStatistics> columns = stats;
      int fileColumns = valueStats.schemaOf(file).fields().size();
      stats =
          name ->
              RowTracking.ROW_ID.equals(name)
                  ? RowIdRange.of(file, fileColumns)
                  : columns.apply(name);
    }
    return StatsEvaluator.mayMatch(filters.value(), stats, file.rowCount());
  }
}
