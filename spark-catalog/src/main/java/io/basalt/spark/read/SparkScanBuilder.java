package io.basalt.spark.read;

import io.basalt.BasaltException;
import io.basalt.operation.incremental.IncrementalRange;
import io.basalt.operation.incremental.IncrementalRanges;
import io.basalt.operation.scan.TableScan;
import io.basalt.predicate.Predicate;
import io.basalt.rowtracking.RowTracking;
import io.basalt.spark.SparkTable;
import io.basalt.spark.convert.SparkPredicates;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.And;
import org.apache.spark.sql.connector.expressions.filter.Not;
import org.apache.spark.sql.connector.expressions.filter.Or;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.internal.connector.PredicateUtils;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Builds a scan: takes the columns Spark needs and the filters it can push. A filter leaves Spark's
 * plan only when planning enforces it exactly ({@link TableScan#enforcesExactly}: partition columns
 * only, tested against each partition's values); every other filter is used to skip files and also
 * handed back for Spark to evaluate.
 */
public final class SparkScanBuilder
    implements ScanBuilder,
        SupportsPushDownRequiredColumns,
        SupportsPushDownV2Filters,
        SupportsPushDownLimit {
  private final FileStoreTable table;
  private final StructType tableSchema;
  private StructType readSchema;
  private final List<Predicate> pushed = new ArrayList<>();
  private final List<Predicate> bucketPredicates = new ArrayList<>();
  private int limit = -1;
  private boolean rowKinds;
  private boolean binlog;
  private boolean rowLevelOperation;
  @Nullable private Consumer<SparkScan> rewrite;

  /** The plan of a point lookup the driver answers ({@link LocalLookups}), or null. */
  @Nullable private TableScan.Plan lookup;

  /** The pushed filters a lookup evaluates itself, in their exact form. */
  private final List<Predicate> lookupEnforced = new ArrayList<>();

  private final List<org.apache.spark.sql.connector.expressions.filter.Predicate> pushedSpark =
      new ArrayList<>();

  public SparkScanBuilder(FileStoreTable table) {
    this.table = table;
    this.tableSchema = SparkTable.sparkSchema(table.schema());
    this.readSchema = tableSchema;
  }

  /**
   * Makes the scan a change read with the {@value ChangeRows#ROW_KIND} column in front ({@code
   * t$audit_log}): the incremental range its options select, or the snapshot as changes.
   */
  public SparkScanBuilder withRowKinds() {
    this.rowKinds = true;
    this.readSchema = ChangeRows.withRowKind(tableSchema);
    return this;
  }

  /**
   * Makes the scan a change read producing {@code t$binlog} rows: the row kind, then each column as
   * an array of its value, or of its values before and after an update.
   */
  public SparkScanBuilder withBinlog() {
    this.binlog = true;
    return withRowKinds();
  }

  /** Whether the scan reads changes: with row kinds, or with an incremental read option. */
  private boolean changeRead() {
    return rowKinds || IncrementalRanges.requested(table.options());
  }

  /**
   * Reads the table columns of {@code requiredSchema} whole, followed by the metadata columns it
   * names (see {@link MetadataColumns}) as Spark asks for them: a pruned {@value
   * MetadataColumns#PARTITION} struct has just the requested fields. Spark matches the scan's
   * output to its attributes by name, so the order is free.
   */
  @Override
  public void pruneColumns(StructType requiredSchema) {
    List<StructField> fields = new ArrayList<>();
    List<StructField> metadata = new ArrayList<>();
    for (StructField field : requiredSchema.fields()) {
      if (rowKinds && ChangeRows.ROW_KIND.equals(field.name())) {
        continue; // put first below
      }
      if (MetadataColumns.isMetadataColumn(tableSchema, field.name())) {
        metadata.add(field);
      } else {
        fields.add(tableSchema.apply(field.name()));
      }
    }
    if (metadata.stream().anyMatch(f -> f.name().equals(MetadataColumns.ROW))) {
      // the row's values are its table columns in table order: read them all
      fields = new ArrayList<>(List.of(tableSchema.fields()));
    }
    fields.addAll(metadata);
    if (rowKinds) {
      fields.add(0, ChangeRows.ROW_KIND_FIELD);
    }
    this.readSchema = new StructType(fields.toArray(new StructField[0]));
  }

  @Override
  public org.apache.spark.sql.connector.expressions.filter.Predicate[] pushPredicates(
      org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
    if (changeRead()) {
      // a change read prunes partitions only, and Spark still evaluates every filter
      for (org.apache.spark.sql.connector.expressions.filter.Predicate predicate : predicates) {
        Optional<Predicate> converted = SparkPredicates.convert(predicate, tableSchema);
        if (converted.isPresent()
            && !table.schema().partitionKeys().isEmpty()
            && table.schema().partitionKeys().containsAll(converted.get().columns())) {
          pushed.add(converted.get());
        }
      }
      return predicates;
    }
    List<org.apache.spark.sql.connector.expressions.filter.Predicate> residual = new ArrayList<>();
    StructType withBucket = tableSchema.add(TableScan.BUCKET_COLUMN, DataTypes.IntegerType, false);
    if (RowTracking.enabled(table.options())) {
      // filters on row ids prune files by their id ranges; Spark still checks them after the scan
      withBucket = withBucket.add(RowTracking.rowIdField());
    }
    for (org.apache.spark.sql.connector.expressions.filter.Predicate predicate : predicates) {
      Optional<Predicate> converted = SparkPredicates.convert(predicate, withBucket);
      if (converted.isPresent() && converted.get().columns().contains(TableScan.BUCKET_COLUMN)) {
        if (converted.get().columns().size() == 1) {
          // selects physical buckets exactly: enforced by planning, nothing left for Spark
          bucketPredicates.add(converted.get());
          pushedSpark.add(predicate);
        } else {
          residual.add(predicate); // mixed with data columns (e.g. an OR): prunes nothing
        }
        continue;
      }
      if (converted.isEmpty()) {
        residual.add(predicate);
        continue;
      }
      pushed.add(converted.get());
      pushedSpark.add(predicate);
      if (!TableScan.enforcesExactly(converted.get(), table.schema())) {
        residual.add(predicate);
      }
    }
    if (!rowLevelOperation) {
      lookup =
          LocalLookups.plan(table, Predicate.and(pushed), Predicate.and(bucketPredicates))
              .orElse(null);
    }
    if (lookup != null) {
      // the lookup evaluates these itself, so Spark needs no filter (and no job) over its rows
      residual.removeIf(
          predicate -> {
            Optional<Predicate> exact =
                SparkPredicates.convert(predicate, tableSchema)
                    .flatMap(p -> LocalLookups.exactForm(p, table.schema()));
            exact.ifPresent(lookupEnforced::add);
            return exact.isPresent();
          });
    }
    return residual.toArray(new org.apache.spark.sql.connector.expressions.filter.Predicate[0]);
  }

  @Override
  public org.apache.spark.sql.connector.expressions.filter.Predicate[] pushedPredicates() {
    return pushedSpark.toArray(new org.apache.spark.sql.connector.expressions.filter.Predicate[0]);
  }

  /**
   * Remembers the limit: a scan whose splits need no merge and hide no rows plans only as many
   * files as the limit needs. Spark still applies the limit itself.
   */
  @Override
  public boolean pushLimit(int limit) {
    this.limit = limit;
    return true;
  }

  /**
   * Makes this builder build the scan of a copy-on-write row-level operation and hand it to {@code
   * built}: pushed filters only skip whole files (a file is read whole or not at all, since every
   * row it keeps must be rewritten), and Spark may narrow the scan to the files holding changed
   * rows at run time.
   */
  public SparkScanBuilder forRewrite(Consumer<SparkScan> built) {
    this.rewrite = built;
    return forRowLevelOperation();
  }

  /**
   * Makes this the scan of a row-level operation (DELETE, UPDATE, MERGE INTO), which must see the
   * whole table: incremental read options on its target are refused.
   */
  public SparkScanBuilder forRowLevelOperation() {
    this.rowLevelOperation = true;
    return this;
  }

  @Override
  public Scan build() {
    if (rowLevelOperation && changeRead()) {
      List<String> set = new ArrayList<>();
      for (io.basalt.options.ConfigOption<?> option :
          io.basalt.options.ReadOptions.INCREMENTAL_OPTIONS) {
        table
            .options()
            .raw(option.key())
            .ifPresent(value -> set.add("'" + option.key() + "' = '" + value + "'"));
      }
      throw new BasaltException(
          String.format(
              "Cannot change rows of table %s while the incremental read option %s is set for"
                  + " it: DELETE, UPDATE and MERGE INTO must read the whole table. Fix: RESET the"
                  + " spark.paimon.* session conf that sets it, or scope it to other tables"
                  + " (spark.paimon.<catalog>.<db>.<table>.<key>).",
              table.name(), String.join(" and ", set)));
    }
    if (changeRead()) {
      return buildChangeScan();
    }
    if (rewrite != null) {
      SparkScan scan =
          new SparkScan(
              table,
              readSchema,
              Predicate.and(pushed),
              Predicate.and(bucketPredicates),
              new Filter[0],
              -1,
              true);
      rewrite.accept(scan);
      return scan;
    }
    List<Filter> parquetFilters = new ArrayList<>();
    for (org.apache.spark.sql.connector.expressions.filter.Predicate predicate : pushedSpark) {
      boolean onBucket =
          SparkPredicates.convert(predicate, tableSchema).isEmpty(); // bucket predicates only
      if (!onBucket && convertsExactly(predicate) && !readsFloatingPoint(predicate)) {
        parquetFilters.add(PredicateUtils.toV1(predicate).get());
      }
    }
    if (lookup != null) {
      return new LocalLookupScan(
          table,
          readSchema,
          lookup,
          Predicate.and(pushed),
          Predicate.and(lookupEnforced),
          parquetFilters.toArray(new Filter[0]));
    }
    return new SparkScan(
        table,
        readSchema,
        Predicate.and(pushed),
        Predicate.and(bucketPredicates),
        parquetFilters.toArray(new Filter[0]),
        limit,
        false);
  }

  /**
   * The scan of a change read; resolves the incremental range now, so bad options fail at planning.
   * Local times in {@code incremental-between-timestamp} are read in the session time zone.
   */
  private Scan buildChangeScan() {
    StructType metadata = new StructType();
    for (StructField field : readSchema.fields()) {
      if (MetadataColumns.isMetadataColumn(tableSchema, field.name())) {
        metadata = metadata.add(field);
      }
    }
    if (metadata.size() > 0) {
      throw new BasaltException(
          String.format(
              "Metadata columns (%s) cannot be read with the changes of table %s. Fix: select"
                  + " table columns only, or read the table without incremental options.",
              String.join(", ", metadata.fieldNames()), table.name()));
    }
    java.time.ZoneId zone =
        java.time.ZoneId.of(SparkSession.active().sessionState().conf().sessionLocalTimeZone());
    Optional<IncrementalRange> range = IncrementalRanges.resolve(table, zone);
    return new SparkIncrementalScan(
        table, readSchema, rowKinds, binlog, range, Predicate.and(pushed));
  }

  /**
   * Whether {@code predicate} reads a FLOAT or DOUBLE column. Parquet's row-group filters compare
   * such values by their bits ({@code Double.compare}, dictionary sets of boxed values), so a row
   * group holding only -0.0 would be skipped for {@code = 0.0} although Spark says -0.0 = 0.0.
   */
  private boolean readsFloatingPoint(
      org.apache.spark.sql.connector.expressions.filter.Predicate predicate) {
    for (NamedReference reference : predicate.references()) {
      String[] names = reference.fieldNames();
      if (names.length == 1 && tableSchema.getFieldIndex(names[0]).isDefined()) {
        DataType type = tableSchema.apply(names[0]).dataType();
        if (type instanceof FloatType || type instanceof DoubleType) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether Spark's V2-to-V1 conversion keeps all of {@code predicate}: it turns an OR with one
   * convertible side into that side, which is stronger than the predicate and so unsafe for
   * skipping row groups.
   */
  private static boolean convertsExactly(
      org.apache.spark.sql.connector.expressions.filter.Predicate predicate) {
    if (predicate instanceof And and) {
      return convertsExactly(and.left()) && convertsExactly(and.right());
    } else if (predicate instanceof Or or) {
      return convertsExactly(or.left()) && convertsExactly(or.right());
    } else if (predicate instanceof Not not) {
      return convertsExactly(not.child());
    }
    return PredicateUtils.toV1(predicate).isDefined();
  }
}
