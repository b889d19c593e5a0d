package io.basalt.format.orc;

import io.basalt.BasaltException;
import io.basalt.utils.Closeables;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.spark.sql.types.StructField;

/**
 * What a columnar reader of ORC data files needs from the engine's ORC layout, so that it resolves
 * columns, decodes timestamps and closes files exactly as the engine's row reader ({@link
 * OrcFileReader}) does.
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

  /**
   * Closes the rows of an ORC file and then the file itself, the file even when closing the rows
   * fails.
   *
   * @throws BasaltException naming {@code path} when either fails (a second failure suppressed)
   */
  public static void close(RecordReader rows, Reader reader, Path path) {
    try {
      rows.close();
    } catch (IOException e) {
      BasaltException failure = closeFailure(path, e);
      Closeables.closeAllAfter(failure, List.of(reader));
      throw failure;
    }
    try {
      reader.close();
    } catch (IOException e) {
      throw closeFailure(path, e);
    }
  }

  private static BasaltException closeFailure(Path path, IOException e) {
    return new BasaltException("Failed to close ORC file " + path + ": " + e.getMessage(), e);
  }
}
