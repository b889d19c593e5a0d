package io.basalt.spark.read;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/**
 * Reads the splits of one input partition one after another, opening each split's reader only when
 * the previous one is done, and sums their metrics by name.
 */
final class ChainedPartitionReader<T> implements PartitionReader<T> {
  private final Iterator<Supplier<PartitionReader<T>>> readers;
  private final Map<String, Long> finished = new LinkedHashMap<>();
  private PartitionReader<T> current;

  ChainedPartitionReader(List<Supplier<PartitionReader<T>>> readers) {
    this.readers = readers.iterator();
  }

  @Override
  public boolean next() throws IOException {
    while (true) {
      if (current != null && current.next()) {
        return true;
      }
      if (current != null) {
        addMetrics(current.currentMetricsValues(), finished);
        current.close();
        current = null;
      }
      if (!readers.hasNext()) {
        return false;
      }
      current = readers.next().get();
    }
  }

  @Override
  public T get() {
    return current.get();
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    Map<String, Long> sums = new LinkedHashMap<>(finished);
    if (current != null) {
      addMetrics(current.currentMetricsValues(), sums);
    }
    return sums.entrySet().stream()
        .map(e -> ColumnarSplitsMetric.taskValue(e.getKey(), e.getValue()))
        .toArray(CustomTaskMetric[]::new);
  }

  private static void addMetrics(CustomTaskMetric[] metrics, Map<String, Long> into) {
    for (CustomTaskMetric metric : metrics) {
      into.merge(metric.name(), metric.value(), Long::sum);
    }
  }

  @Override
  public void close() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
