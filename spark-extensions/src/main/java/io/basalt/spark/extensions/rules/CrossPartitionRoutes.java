package io.basalt.spark.extensions.rules;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.min_by;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.raise_error;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.when;

import io.basalt.spark.write.CrossPartitionUpsert;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;

/**
 * The DataFrame side of {@link CrossPartitionUpsertRouting}: joins the new rows with the keys the
 * table holds and turns each key's rows into the rows to write, per the merge engine's rule.
 */
final class CrossPartitionRoutes {
  static final String OLD = "__basalt_old_";
  static final String KEY = "__basalt_key_";
  static final String OLD_BUCKET = "__basalt_old_bucket";
  static final String PAIMON_BUCKET = "__paimon_bucket";
  private static final String FIRST = "__basalt_first_";
  private static final String EDGE = "__basalt_edge_order";

  private final Table table;
  private final List<String> keys;
  private final List<String> partitions;

  CrossPartitionRoutes(Table table) {
    this.table = table;
    this.keys = CrossPartitionUpsert.primaryKeys(table);
    this.partitions = CrossPartitionUpsert.partitionKeys(table);
  }

  /** The key and partition columns of a read of the table, once each, then the bucket. */
  List<Column> keyColumns() {
    Set<String> names = new LinkedHashSet<>(keys);
    names.addAll(partitions);
    List<Column> columns = new ArrayList<>();
    for (String name : names) {
      columns.add(column(name));
    }
    columns.add(column(PAIMON_BUCKET));
    return columns;
  }

  /** {@link #keyColumns} renamed apart from the new rows' columns. */
  Dataset<Row> renamed(Dataset<Row> existing) {
    List<Column> columns = new ArrayList<>();
    for (String key : keys) {
      columns.add(column(key).as(KEY + key));
    }
    for (String partition : partitions) {
      columns.add(column(partition).as(OLD + partition));
    }
    columns.add(column(PAIMON_BUCKET).as(OLD_BUCKET));
    return existing.select(columns.toArray(new Column[0]));
  }

  /** Existing keys outside the partitions {@code input} writes (a dynamic overwrite's). */
  Dataset<Row> outsidePartitionsOf(Dataset<Row> existing, Dataset<Row> input) {
    List<Column> written = new ArrayList<>();
    for (String partition : partitions) {
      written.add(column(partition).as(FIRST + partition));
    }
    Dataset<Row> targets = input.select(written.toArray(new Column[0])).distinct();
    Column on = lit(true);
    for (String partition : partitions) {
      on =
          on.and(
              existing
                  .col(quote(OLD + partition))
                  .eqNullSafe(targets.col(quote(FIRST + partition))));
    }
    return existing.join(targets, on, "left_anti");
  }

  /** The new rows, each with its key's current partition and bucket (nulls for a new key). */
  Dataset<Row> join(Dataset<Row> input, Dataset<Row> existing) {
    Column on = null;
    for (String key : keys) {
      Column equal = input.col(quote(key)).equalTo(existing.col(quote(KEY + key)));
      on = on == null ? equal : on.and(equal);
    }
    Dataset<Row> joined = input.join(existing, on, "left_outer");
    for (String key : keys) {
      joined = joined.drop(KEY + key);
    }
    return joined;
  }

  /** The new rows of an empty table: no key has a partition yet. */
  Dataset<Row> withoutExisting(Dataset<Row> input) {
    Dataset<Row> joined = input;
    for (String partition : partitions) {
      joined =
          joined.withColumn(
              OLD + partition, lit(null).cast(input.schema().apply(partition).dataType()));
    }
    return joined.withColumn(OLD_BUCKET, lit(null).cast("int"));
  }

  /**
   * The rows to write, per the merge engine's rule.
   *
   * @param columns the table's columns, then the input order
   * @param overwrite whether this is an overwrite; its existing keys are those outside the
   *     overwritten partitions, which only first-row can leave alone (it drops the new row)
   */
  Dataset<Row> route(Dataset<Row> joined, String[] columns, boolean overwrite) {
    List<Column> keyColumns = new ArrayList<>();
    for (String key : keys) {
      keyColumns.add(column(key));
    }
    WindowSpec byKey = Window.partitionBy(keyColumns.toArray(new Column[0]));
    Column order = column(CrossPartitionUpsert.ORDER);
    Column exists = column(OLD_BUCKET).isNotNull();
    CrossPartitionUpsert.Rule rule = CrossPartitionUpsert.rule(table);
    if (overwrite && rule != CrossPartitionUpsert.Rule.KEEP_FIRST) {
      joined = joined.filter(when(exists, raise_error(lit(overwriteError()))).otherwise(lit(true)));
    }
    return switch (rule) {
      case MOVE -> moves(joined, columns, byKey, order, exists);
      case UPDATE_IN_PLACE -> {
        // every row goes to the key's partition: its current one, else its first row's
        Map<String, Column> target = new HashMap<>();
        Dataset<Row> firsts = joined;
        for (String partition : partitions) {
          firsts =
              firsts.withColumn(FIRST + partition, min_by(column(partition), order).over(byKey));
          target.put(
              partition,
              when(exists, column(OLD + partition)).otherwise(column(FIRST + partition)));
        }
        Column bucket = coalesce(column(OLD_BUCKET), lit(-1));
        yield firsts.select(rowStruct(columns, target, lit(false), bucket).as("r")).select("r.*");
      }
      case KEEP_FIRST -> {
        // an existing key keeps its row; a new key keeps its first
        Dataset<Row> first =
            joined
                .withColumn(EDGE, min(order).over(byKey))
                .filter(not(exists).and(order.equalTo(column(EDGE))));
        yield first.select(rowStruct(columns, Map.of(), lit(false), lit(-1)).as("r")).select("r.*");
      }
    };
  }

  /** Deduplicate: the last row of each key wins; it deletes the key where it was if it moves. */
  private Dataset<Row> moves(
      Dataset<Row> joined, String[] columns, WindowSpec byKey, Column order, Column exists) {
    Column samePartition = lit(true);
    for (String partition : partitions) {
      samePartition = samePartition.and(column(partition).eqNullSafe(column(OLD + partition)));
    }
    Dataset<Row> last =
        joined.withColumn(EDGE, max(order).over(byKey)).filter(order.equalTo(column(EDGE)));
    Column moved = exists.and(not(samePartition));
    Column bucket = when(exists.and(samePartition), column(OLD_BUCKET)).otherwise(lit(-1));
    Column insert = rowStruct(columns, Map.of(), lit(false), bucket);
    Map<String, Column> oldPartition = new HashMap<>();
    for (String partition : partitions) {
      oldPartition.put(partition, column(OLD + partition));
    }
    Column delete = rowStruct(columns, oldPartition, lit(true), column(OLD_BUCKET));
    return last.select(explode(when(moved, array(insert, delete)).otherwise(array(insert))).as("r"))
        .select("r.*");
  }

  private String overwriteError() {
    return String.format(
        "INSERT OVERWRITE of cross-partition upsert table %s writes a key that lives in a"
            + " partition it does not overwrite; merge engine '%s' would have to change that"
            + " partition too, which an overwrite may not (as in Paimon). Fix: overwrite that"
            + " partition as well, or INSERT INTO the rows, which upserts them across partitions.",
        table.name(), CrossPartitionUpsert.engineName(table));
  }

  /** The table columns (some replaced), then the delete flag, the bucket and the input order. */
  private static Column rowStruct(
      String[] columns, Map<String, Column> replaced, Column delete, Column bucket) {
    List<Column> fields = new ArrayList<>();
    for (String name : columns) {
      if (name.equals(CrossPartitionUpsert.ORDER)) {
        continue;
      }
      fields.add(replaced.getOrDefault(name, column(name)).as(name));
    }
    fields.add(delete.as(CrossPartitionUpsert.DELETE));
    fields.add(bucket.cast("int").as(CrossPartitionUpsert.BUCKET));
    fields.add(column(CrossPartitionUpsert.ORDER).as(CrossPartitionUpsert.ORDER));
    return struct(fields.toArray(new Column[0]));
  }

  static Column column(String name) {
    return col(quote(name));
  }

  static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
