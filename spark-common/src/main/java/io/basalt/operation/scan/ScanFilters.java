package io.basalt.operation.scan;

import io.basalt.predicate.Predicate;
import io.basalt.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * A scan filter split by what may use it: partition predicates prune manifests and partitions, key
 * predicates skip single files (primary-key tables), value predicates skip single files of append
 * tables but only whole buckets of primary-key tables, since skipping one file could resurrect an
 * older version of a row.
 */
record ScanFilters(
    @Nullable Predicate partition, @Nullable Predicate key, @Nullable Predicate value) {

  static ScanFilters split(@Nullable Predicate filter, TableSchema schema) {
    if (filter == null) {
      return new ScanFilters(null, null, null);
    }
    Set<String> partitionKeys = new HashSet<>(schema.partitionKeys());
    Set<String> keys = new HashSet<>(schema.trimmedPrimaryKeys());
    List<Predicate> partition = new ArrayList<>();
    List<Predicate> key = new ArrayList<>();
    List<Predicate> value = new ArrayList<>();
    for (Predicate conjunct : conjuncts(filter)) {
      Set<String> columns = conjunct.columns();
      if (partitionKeys.containsAll(columns)) {
        partition.add(conjunct);
      } else if (schema.hasPrimaryKey() && keys.containsAll(columns)) {
        key.add(conjunct);
      } else {
        value.add(conjunct);
      }
    }
    return new ScanFilters(Predicate.and(partition), Predicate.and(key), Predicate.and(value));
  }

  private static List<Predicate> conjuncts(Predicate predicate) {
    List<Predicate> result = new ArrayList<>();
    if (predicate instanceof Predicate.And and) {
      result.addAll(conjuncts(and.left()));
      result.addAll(conjuncts(and.right()));
    } else {
      result.add(predicate);
    }
    return result;
  }
}
