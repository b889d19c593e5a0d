package io.basalt.operation.incremental;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.predicate.ColumnStatistics;
import io.basalt.predicate.Predicate;
import io.basalt.predicate.StatsEvaluator;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/** Whether a partition's values satisfy a predicate over partition columns; one answer each. */
final class PartitionFilter {
  private final Predicate predicate;
  private final StructType partitionType;
  private final BinaryRowCodec codec;
  private final Map<BinaryRow, Boolean> answers = new HashMap<>();

  PartitionFilter(Predicate predicate, StructType partitionType) {
    this.predicate = predicate;
    this.partitionType = partitionType;
    this.codec = new BinaryRowCodec(partitionType);
  }

  boolean matches(BinaryRow partition) {
    return answers.computeIfAbsent(partition, this::evaluate);
  }

  private boolean evaluate(BinaryRow partition) {
    InternalRow values = codec.toRow(partition);
    Map<String, ColumnStatistics> exact = new HashMap<>();
    for (int i = 0; i < partitionType.size(); i++) {
      DataType type = partitionType.fields()[i].dataType();
      boolean isNull = values.isNullAt(i);
      Object value = isNull ? null : values.get(i, type);
      exact.put(
          partitionType.fields()[i].name(), new ColumnStatistics(value, value, isNull ? 1L : 0L));
    }
    return StatsEvaluator.mayMatch(
        predicate, name -> exact.getOrDefault(name, ColumnStatistics.UNKNOWN), 1);
  }
}
