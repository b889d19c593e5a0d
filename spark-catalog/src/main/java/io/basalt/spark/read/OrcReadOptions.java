package io.basalt.spark.read;

import java.io.Serializable;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.execution.datasources.orc.OrcUtils;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The session settings a columnar read of ORC data files needs, captured on the driver (where
 * {@link SQLConf} is the session's) and shipped to the tasks: Spark's own ORC settings, so a Basalt
 * table of ORC files reads the way Spark's ORC source would.
 *
 * @param batchSize rows per batch ({@code spark.sql.orc.columnarReaderBatchSize})
 * @param filterPushDown whether pushed filters skip stripes and row groups ({@code
 *     spark.sql.orc.filterPushdown})
 */
record OrcReadOptions(int batchSize, boolean filterPushDown) implements Serializable {

  /** The options of the current session. */
  static OrcReadOptions of() {
    SQLConf conf = SQLConf.get();
    return new OrcReadOptions(conf.orcVectorizedReaderBatchSize(), conf.orcFilterPushDown());
  }

  /**
   * Whether Spark would read {@code readSchema} from ORC as columnar batches in this session: its
   * vectorized ORC reader is on ({@code spark.sql.orc.enableVectorizedReader}) and handles every
   * column (nested ones only with {@code spark.sql.orc.enableNestedColumnVectorizedReader}), and
   * whole-stage codegen is on with not too many fields.
   */
  static boolean supportsColumnar(StructType readSchema) {
    SQLConf conf = SQLConf.get();
    if (!conf.orcVectorizedReaderEnabled() || !conf.wholeStageEnabled()) {
      return false;
    }
    StructType requested = VectorizedReadOptions.requestedSchema(readSchema);
    for (StructField field : requested.fields()) {
      if (!OrcUtils.supportColumnarReads(
          field.dataType(), conf.orcVectorizedReaderNestedColumnEnabled())) {
        return false;
      }
    }
    return !WholeStageCodegenExec.isTooManyFields(conf, requested);
  }
}
