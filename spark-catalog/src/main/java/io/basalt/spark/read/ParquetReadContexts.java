package io.basalt.spark.read;

import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The Hadoop configuration and task attempt contexts that a reader hands Spark's Parquet reader for
 * each file, made once and shared by the files that need the same. A {@link TaskAttemptContextImpl}
 * built from a plain {@link Configuration} copies it (hundreds of entries) into a {@link JobConf};
 * per file, those copies were a third of a deletion-vector scan's reader samples over 128 small
 * files. Spark's reader only reads the context's configuration, so files share one context; a file
 * whose row-group filter differs from the last filtered file's gets a copy holding its filter
 * (files of one schema get equal filters, so a split usually makes at most one copy).
 *
 * <p>Not thread-safe: one per reader, or per task for the readers of its splits.
 */
final class ParquetReadContexts {
  private static final TaskAttemptID ATTEMPT = new TaskAttemptID("basalt", 0, TaskType.MAP, 0, 0);

  private final JobConf conf;
  private final TaskAttemptContext unfiltered;
  @Nullable private FilterPredicate lastFilter;
  @Nullable private TaskAttemptContext lastFiltered;

  /**
   * @param conf the read's configuration, already set up for Spark's read support ({@link
   *     VectorizedReadOptions#hadoopConf}); used as it is if it is a {@link JobConf}, and never
   *     changed afterwards
   */
  ParquetReadContexts(Configuration conf) {
    this.conf = conf instanceof JobConf job ? job : new JobConf(conf);
    this.unfiltered = new TaskAttemptContextImpl(this.conf, ATTEMPT);
  }

  /** The configuration every file is opened with (file system, footer read options). */
  Configuration conf() {
    return conf;
  }

  /**
   * The context of a file read with row-group filter {@code filter} (null for none): the shared one
   * without a filter, else a copy of the configuration holding the filter, reused while the filter
   * stays equal.
   */
  TaskAttemptContext context(@Nullable FilterPredicate filter) {
    if (filter == null) {
      return unfiltered;
    }
    if (!filter.equals(lastFilter)) {
      JobConf filtered = new JobConf(conf);
      ParquetInputFormat.setFilterPredicate(filtered, filter);
      lastFiltered = new TaskAttemptContextImpl(filtered, ATTEMPT);
      lastFilter = filter;
    }
    return lastFiltered;
  }

  /**
   * The contexts of a columnar read of {@code options.requestedSchema()}, with each row's position
   * in its file as a column after the data columns if {@code positions} (Spark's reader fills a
   * column of that name with them, right across skipped row groups and pages).
   */
  static ParquetReadContexts of(
      VectorizedReadOptions options, Configuration tableConf, boolean positions) {
    Configuration conf = options.hadoopConf(tableConf);
    if (positions) {
      StructType withRowIndex =
          options
              .requestedSchema()
              .add(
                  new StructField(
                      ParquetFileFormat.ROW_INDEX_TEMPORARY_COLUMN_NAME(),
                      DataTypes.LongType,
                      true,
                      Metadata.empty()));
      conf.set(ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA(), withRowIndex.json());
    }
    return new ParquetReadContexts(conf);
  }

  /**
   * The contexts of one task's columnar split readers, made when a split first needs them: the
   * configuration is copied at most once per kind of batch (with positions or without), not once
   * per split. Not thread-safe.
   */
  static final class PerTask {
    private final VectorizedReadOptions options;
    private final Configuration tableConf;
    @Nullable private ParquetReadContexts plain;
    @Nullable private ParquetReadContexts withPositions;

    PerTask(VectorizedReadOptions options, Configuration tableConf) {
      this.options = options;
      this.tableConf = tableConf;
    }

    /** The contexts of batches with row positions if {@code positions}, else without. */
    ParquetReadContexts get(boolean positions) {
      if (positions) {
        if (withPositions == null) {
          withPositions = of(options, tableConf, true);
        }
        return withPositions;
      }
      if (plain == null) {
        plain = of(options, tableConf, false);
      }
      return plain;
    }
  }
}
