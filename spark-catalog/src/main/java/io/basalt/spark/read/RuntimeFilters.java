package io.basalt.spark.read;

import io.basalt.data.BinaryRowCodec;
import io.basalt.deletionvectors.DeletionFile;
import io.basalt.manifest.DataFileMeta;
import io.basalt.operation.scan.TableScan;
import io.basalt.predicate.ColumnStatistics;
import io.basalt.predicate.Predicate;
import io.basalt.predicate.StatsEvaluator;
import io.basalt.spark.convert.SparkPredicates;
import io.basalt.table.DataSplit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.internal.connector.PredicateUtils;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The filters Spark hands a scan at run time ({@code SupportsRuntimeV2Filtering}): the file-path
 * filter of a copy-on-write rewrite, and dynamic partition pruning on partition columns. Both only
 * drop splits or files of the plan the scan made, so a grouped scan keeps a subset of its keys.
 */
final class RuntimeFilters {
  private RuntimeFilters() {}

  /**
   * The partition predicates among {@code predicates}, as one engine predicate, or null. Others are
   * ignored: Spark evaluates runtime filters itself as well, so this is pruning only.
   */
  @Nullable
  static Predicate partitionFilter(
      org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates,
      StructType tableSchema,
      List<String> partitionKeys) {
    List<Predicate> kept = new ArrayList<>();
    for (org.apache.spark.sql.connector.expressions.filter.Predicate predicate : predicates) {
      Optional<Predicate> converted = SparkPredicates.convert(predicate, tableSchema);
      if (converted.isPresent() && partitionKeys.containsAll(converted.get().columns())) {
        kept.add(converted.get());
      }
    }
    return Predicate.and(kept);
  }

  /**
   * {@code full} with only the splits whose partition may match {@code partitionFilter}, decided on
   * the partition values the splits carry: no manifest is read again, and the result is a subset.
   */
  static TableScan.Plan keepPartitions(
      TableScan.Plan full, Predicate partitionFilter, StructType partitionType) {
    BinaryRowCodec codec = new BinaryRowCodec(partitionType);
    StructField[] fields = partitionType.fields();
    List<DataSplit> kept = new ArrayList<>();
    for (DataSplit split : full.splits()) {
      InternalRow values = codec.toRow(split.partition());
      Map<String, ColumnStatistics> exact = new HashMap<>();
      for (int i = 0; i < fields.length; i++) {
        Object value = values.isNullAt(i) ? null : values.get(i, fields[i].dataType());
        exact.put(fields[i].name(), new ColumnStatistics(value, value, value == null ? 1L : 0L));
      }
      if (StatsEvaluator.mayMatch(
          partitionFilter, name -> exact.getOrDefault(name, ColumnStatistics.UNKNOWN), 1)) {
        kept.add(split);
      }
    }
    return new TableScan.Plan(full.snapshot(), kept, full.metrics());
  }

  /** The names of the files a rewrite's {@code __paimon_file_path IN (...)} keeps, or null. */
  @Nullable
  static Set<String> fileNames(
      org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
    Set<String> names = null;
    for (org.apache.spark.sql.connector.expressions.filter.Predicate predicate : predicates) {
      scala.Option<Filter> converted = PredicateUtils.toV1(predicate);
      if (converted.isDefined()
          && converted.get() instanceof In in
          && in.attribute().equals(MetadataColumns.FILE_PATH)) {
        Set<String> these = new HashSet<>();
        for (Object value : in.values()) {
          these.add(new org.apache.hadoop.fs.Path(String.valueOf(value)).getName());
        }
        if (names != null) {
          these.retainAll(names);
        }
        names = these;
      }
    }
    return names;
  }

  /** {@code full} with only the files named in {@code names}. */
  static TableScan.Plan keepFiles(TableScan.Plan full, Set<String> names) {
    List<DataSplit> kept = new ArrayList<>();
    for (DataSplit split : full.splits()) {
      List<DataFileMeta> files = new ArrayList<>();
      List<DeletionFile> deletions = new ArrayList<>();
      for (int i = 0; i < split.files().size(); i++) {
        if (names.contains(split.files().get(i).fileName())) {
          files.add(split.files().get(i));
          if (!split.deletionFiles().isEmpty()) {
            deletions.add(split.deletionFile(i));
          }
        }
      }
      if (!files.isEmpty()) {
        kept.add(
            new DataSplit(
                split.snapshotId(),
                split.partition(),
                split.bucket(),
                split.totalBuckets(),
                files,
                split.rawConvertible(),
                deletions));
      }
    }
    return new TableScan.Plan(full.snapshot(), kept, full.metrics());
  }
}
