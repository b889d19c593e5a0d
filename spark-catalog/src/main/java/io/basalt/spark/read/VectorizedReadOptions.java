package io.basalt.spark.read;

import io.basalt.data.TimestampPrecision;
import io.basalt.schema.DataField;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.execution.datasources.parquet.ParquetUtils;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The session settings a columnar read needs, captured on the driver (where {@link SQLConf} is the
 * session's) and shipped to the tasks.
 *
 * @param requestedSchema the table columns to read, with CHAR and VARCHAR read as STRING, each
 *     field (nested struct fields too) carrying its field id for Spark's reader ({@code
 *     parquet.field.id}) and for Basalt ({@link DataField#FIELD_ID_KEY})
 * @param filters the pushed filters, as Spark data source filters, for row-group skipping
 */
record VectorizedReadOptions(
    StructType requestedSchema,
    int batchSize,
    boolean offHeap,
    String sessionTimeZone,
    boolean nestedSchemaPruning,
    boolean filterPushDown,
    boolean pushDownDate,
    boolean pushDownTimestamp,
    boolean pushDownDecimal,
    boolean pushDownStringPredicate,
    int pushDownInFilterThreshold,
    Filter[] filters)
    implements Serializable {

  /**
   * The options of a read of {@code readSchema} (table columns carrying their field ids) in the
   * current session. Only filters over read columns are kept: Parquet's page (column index)
   * filtering treats a column left out of the projection as all nulls, which would drop every row
   * (filters on partition columns are often not read, and are enforced by partition pruning
   * anyway).
   */
  static VectorizedReadOptions of(StructType readSchema, Filter[] filters) {
    SQLConf conf = SQLConf.get();
    Set<String> read = new HashSet<>(Arrays.asList(readSchema.fieldNames()));
    List<Filter> onReadColumns = new ArrayList<>();
    for (Filter filter : filters) {
      if (read.containsAll(Arrays.asList(filter.references()))) {
        onReadColumns.add(filter);
      }
    }
    return new VectorizedReadOptions(
        fileReadSchema(readSchema),
        conf.parquetVectorizedReaderBatchSize(),
        conf.offHeapColumnVectorEnabled(),
        conf.sessionLocalTimeZone(),
        conf.nestedSchemaPruningEnabled(),
        conf.parquetFilterPushDown(),
        conf.parquetFilterPushDownDate(),
        conf.parquetFilterPushDownTimestamp(),
        conf.parquetFilterPushDownDecimal(),
        conf.parquetFilterPushDownStringPredicate(),
        conf.parquetFilterPushDownInFilterThreshold(),
        onReadColumns.toArray(new Filter[0]));
  }

  /**
   * Whether Spark would read {@code readSchema} from Parquet as columnar batches in the current
   * session: Spark's own rule for its Parquet scans (the vectorized reader is enabled and handles
   * every type, nested types only with {@code
   * spark.sql.parquet.enableNestedColumnVectorizedReader}; whole-stage codegen is on and the schema
   * has not too many fields).
   */
  static boolean supportsColumnar(StructType readSchema) {
    SQLConf conf = SQLConf.get();
    StructType requested = requestedSchema(readSchema);
    return ParquetUtils.isBatchReadSupportedForSchema(conf, requested)
        && conf.wholeStageEnabled()
        && !WholeStageCodegenExec.isTooManyFields(conf, requested);
  }

  /**
   * Whether {@code readSchema} reads a column that {@code tableSchema} declares a timestamp of
   * precision 7 to 9: Paimon writes those as INT96, with times before 1970 as negative times of
   * day, which Spark's vectorized reader rounds toward zero (Basalt's row reader rounds them down).
   */
  static boolean readsNanosecondTimestamps(StructType tableSchema, StructType readSchema) {
    for (StructField field : tableSchema.fields()) {
      if (TimestampPrecision.of(field) > TimestampPrecision.DEFAULT
          && Arrays.asList(readSchema.fieldNames()).contains(field.name())) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code readSchema} as the Parquet reader should produce it: CHAR and VARCHAR as STRING (no
   * length checks on reads), no field metadata.
   */
  static StructType requestedSchema(StructType readSchema) {
    StructField[] fields = new StructField[readSchema.size()];
    for (int i = 0; i < fields.length; i++) {
      StructField field = readSchema.fields()[i];
      fields[i] =
          new StructField(
              field.name(),
              CharVarcharUtils.replaceCharVarcharWithString(field.dataType()),
              field.nullable(),
              Metadata.empty());
    }
    return new StructType(fields);
  }

  /**
   * {@code readSchema} as Spark's Parquet reader should request it: CHAR and VARCHAR as STRING, and
   * every field matched by its id, so files written under older schemas resolve renamed columns to
   * their data and columns they lack to nulls.
   */
  static StructType fileReadSchema(StructType readSchema) {
    StructField[] fields = new StructField[readSchema.size()];
    for (int i = 0; i < fields.length; i++) {
      StructField field = readSchema.fields()[i];
      MetadataBuilder metadata = new MetadataBuilder();
      if (field.metadata().contains(DataField.FIELD_ID_KEY)) {
        long id = field.metadata().getLong(DataField.FIELD_ID_KEY);
        metadata
            .putLong(DataField.FIELD_ID_KEY, id)
            .putLong(ParquetUtils.FIELD_ID_METADATA_KEY(), id);
      }
      fields[i] =
          new StructField(
              field.name(), fileReadType(field.dataType()), field.nullable(), metadata.build());
    }
    return new StructType(fields);
  }

  private static DataType fileReadType(DataType type) {
    if (type instanceof StructType struct) {
      return fileReadSchema(struct);
    } else if (type instanceof ArrayType array) {
      return DataTypes.createArrayType(fileReadType(array.elementType()), array.containsNull());
    } else if (type instanceof MapType map) {
      return DataTypes.createMapType(
          fileReadType(map.keyType()), fileReadType(map.valueType()), map.valueContainsNull());
    }
    return CharVarcharUtils.replaceCharVarcharWithString(type);
  }

  /** The same settings for reading {@code readSchema} instead, without row-group filters. */
  VectorizedReadOptions withReadSchema(StructType readSchema) {
    return new VectorizedReadOptions(
        fileReadSchema(readSchema),
        batchSize,
        offHeap,
        sessionTimeZone,
        nestedSchemaPruning,
        filterPushDown,
        pushDownDate,
        pushDownTimestamp,
        pushDownDecimal,
        pushDownStringPredicate,
        pushDownInFilterThreshold,
        new Filter[0]);
  }

  /** The same settings with {@code filters} for row-group skipping instead. */
  VectorizedReadOptions withFilters(Filter[] filters) {
    return new VectorizedReadOptions(
        requestedSchema,
        batchSize,
        offHeap,
        sessionTimeZone,
        nestedSchemaPruning,
        filterPushDown,
        pushDownDate,
        pushDownTimestamp,
        pushDownDecimal,
        pushDownStringPredicate,
        pushDownInFilterThreshold,
        filters);
  }

  /**
   * A copy of {@code base} set up for Spark's vectorized Parquet reader with {@link
   * VectorizedReadSupport}. Columns are matched by field id (every Basalt and Paimon data file
   * carries them), names only where a field has no id.
   */
  Configuration hadoopConf(Configuration base) {
    // a JobConf, which Hadoop's task contexts take as it is instead of copying it again
    Configuration conf = new JobConf(base);
    conf.set(ParquetInputFormat.READ_SUPPORT_CLASS, VectorizedReadSupport.class.getName());
    // Spark's reader loads the read support by name through this configuration's class loader
    conf.setClassLoader(VectorizedReadSupport.class.getClassLoader());
    conf.set(ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA(), requestedSchema.json());
    conf.set(SQLConf.SESSION_LOCAL_TIMEZONE().key(), sessionTimeZone);
    conf.setBoolean(SQLConf.NESTED_SCHEMA_PRUNING_ENABLED().key(), nestedSchemaPruning);
    conf.setBoolean(SQLConf.CASE_SENSITIVE().key(), true);
    conf.setBoolean(SQLConf.PARQUET_BINARY_AS_STRING().key(), false);
    conf.setBoolean(SQLConf.PARQUET_INT96_AS_TIMESTAMP().key(), true);
    conf.setBoolean(SQLConf.PARQUET_INFER_TIMESTAMP_NTZ_ENABLED().key(), true);
    conf.setBoolean(SQLConf.LEGACY_PARQUET_NANOS_AS_LONG().key(), false);
    conf.setBoolean(SQLConf.PARQUET_FIELD_ID_READ_ENABLED().key(), true);
    return conf;
  }
}
