package io.basalt.schema;

import io.basalt.BasaltException;
import io.basalt.options.CrossPartitionOptions;
import io.basalt.options.Options;
import io.basalt.options.TableOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a primary key that leaves out partition columns: such a key must stay unique across
 * partitions, which only dynamic buckets ({@code 'bucket' = '-1'}) can do, as in Paimon.
 */
final class CrossPartitionValidation {
  private CrossPartitionValidation() {}

  static void validate(TableSchema schema, Options options, String table, int bucket) {
    List<String> missing = missingPartitionColumns(schema);
    if (missing.isEmpty()) {
      return;
    }
    String bucketKey = TableOptions.BUCKET.key();
    List<String> fullKey = new ArrayList<>(missing);
    fullKey.addAll(schema.primaryKeys());
    if (bucket != -1) {
      throw new BasaltException(
          String.format(
              "The primary key (%s) of table %s leaves out partition column(s) %s, which needs"
                  + " '%s' = -1 (dynamic buckets: a cross-partition upsert table), not '%s' = %s."
                  + " Fix: remove '%s', or set '%s' = '%s'.",
              String.join(", ", schema.primaryKeys()),
              table,
              String.join(", ", missing),
              bucketKey,
              bucketKey,
              bucket,
              bucketKey,
              TableOptions.PRIMARY_KEY.key(),
              String.join(",", fullKey)));
    }
    if (!options.get(CrossPartitionOptions.ENABLED)) {
      throw new BasaltException(
          String.format(
              "Option '%s' = 'false' on table %s: its primary key (%s) leaves out partition"
                  + " column(s) %s, so keys are kept unique across partitions. Fix: add the"
                  + " partition columns to the primary key instead ('%s' = '%s'), or remove the"
                  + " option.",
              CrossPartitionOptions.ENABLED.key(),
              table,
              String.join(", ", schema.primaryKeys()),
              String.join(", ", missing),
              TableOptions.PRIMARY_KEY.key(),
              String.join(",", fullKey)));
    }
  }

  /** The partition columns the primary key leaves out; empty on other tables. */
  static List<String> missingPartitionColumns(TableSchema schema) {
    List<String> missing = new ArrayList<>(schema.partitionKeys());
    missing.removeAll(schema.primaryKeys());
    return missing;
  }
}
