package io.basalt.spark.procedures;

import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/** The result of a procedure that returns several rows, held on the driver. */
record LocalRows(InternalRow[] rows, StructType readSchema) implements LocalScan {

  /** A call result of {@code rows} with schema {@code schema}. */
  static Iterator<Scan> of(List<InternalRow> rows, StructType schema) {
    return Collections.<Scan>singletonList(new LocalRows(rows.toArray(new InternalRow[0]), schema))
        .iterator();
  }
}
