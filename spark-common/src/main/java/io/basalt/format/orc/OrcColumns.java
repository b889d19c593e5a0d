package io.basalt.format.orc;

import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.orc.TypeDescription;
import org.apache.spark.sql.types.StructField;

/**
 * What a columnar reader of ORC data files needs from the engine's ORC layout, so that it resolves
 * columns and decodes timestamps exactly as the engine's row reader ({@link OrcFileReader}) does.
 */
public final class OrcColumns {
  private OrcColumns() {}

  /**
   * The index of the child of {@code struct} that holds {@code wanted}: matched by the field id
   * attribute {@value OrcSchemas#FIELD_ID_ATTRIBUTE} when the file carries ids, else by name; -1
   * when the file lacks the field (it was added after the file was written).
   */
  public static int childIndex(TypeDescription struct, StructField wanted) {
    return OrcValueReaders.childIndex(struct, wanted);
  }

  /**
   * The Spark value (micros since the epoch; the UTC wall clock for TIMESTAMP_NTZ) of row {@code
   * index} of an ORC timestamp vector, in Paimon's legacy encoding (see the package docs).
   */
  public static long micros(TimestampColumnVector vector, int index) {
    return OrcTimestamps.micros(vector.asScratchTimestamp(index));
  }
}
