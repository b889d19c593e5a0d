package io.basalt.spark.extensions.rules;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.min_by;
import static org.apache.spark.sql.functions.monotonically_increasing_id;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.when;

import io.basalt.merge.MergeEngine.CrossPartitionRule;
import io.basalt.spark.write.CrossPartitionUpsert;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.AppendData;
import org.apache.spark.sql.catalyst.plans.logical.AppendData$;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.classic.Dataset;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation$;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.Option;

/**
 * Routes an append to a cross-partition upsert table (a primary key without every partition
 * column): Basalt's replacement for Paimon's RocksDB key index. The rule rewrites the append's
 * query into a join of the new rows with the table's current keys, read at the latest snapshot as
 * key columns, partition columns and {@code __paimon_bucket}, and applies the merge engine's rule
 * per key with window functions over the key; everything stays distributed and spills like any
 * Spark join, nothing is collected in the driver. Each output row names its bucket (the key's
 * current bucket, or -1 for the HASH index to assign one in the new partition) and whether it
 * deletes the key from its old partition; the routed table's write commits them, failing if another
 * write committed after the snapshot the keys were read from.
 *
 * <p>It runs after resolution, when the append's query has the table's columns; rewriting the query
 * (rather than looking keys up inside the write) lets Spark plan the lookup as a join.
 */
public final class CrossPartitionUpsertRouting extends Rule<LogicalPlan> {
  private static final String OLD = "__basalt_old_";
  private static final String KEY = "__basalt_key_";
  private static final String FIRST = "__basalt_first_";
  private static final String EDGE = "__basalt_edge_order";
  private static final String OLD_BUCKET = "__basalt_old_bucket";
  private static final String PAIMON_BUCKET = "__paimon_bucket";
  private final SparkSession session;

  public CrossPartitionUpsertRouting(SparkSession session) {
    this.session = session;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (!(plan instanceof AppendData append)
        || !append.resolved()
        || !(append.table() instanceof DataSourceV2Relation relation)
        || !CrossPartitionUpsert.applies(relation.table())) {
      return plan;
    }
    Table table = relation.table();
    Long snapshot = CrossPartitionUpsert.latestSnapshotId(table);
    org.apache.spark.sql.classic.SparkSession classic =
        (org.apache.spark.sql.classic.SparkSession) session;
    Dataset<Row> input =
        Dataset.ofRows(classic, append.query())
            .withColumn(CrossPartitionUpsert.ORDER, monotonically_increasing_id());
    Dataset<Row> joined =
        snapshot == null
            ? withoutExisting(input, table)
            : withExisting(input, existingKeys(classic, relation, snapshot), table);
    Dataset<Row> routed = route(joined, table, input.columns());
    StructType schema = nullable(routed.schema());
    DataSourceV2Relation target =
        DataSourceV2Relation$.MODULE$.create(
            CrossPartitionUpsert.routed(table, schema, snapshot),
            relation.catalog(),
            relation.identifier());
    return AppendData$.MODULE$.byPosition(
        target, routed.queryExecution().analyzed(), append.writeOptions());
  }

  /** The table's keys at {@code snapshot}, with their partition and bucket, renamed apart. */
  private static Dataset<Row> existingKeys(
      org.apache.spark.sql.classic.SparkSession session,
      DataSourceV2Relation relation,
      long snapshot) {
    Map<String, String> options = new HashMap<>();
    options.put("scan.snapshot-id", String.valueOf(snapshot));
    DataSourceV2Relation read =
        DataSourceV2Relation$.MODULE$.create(
            relation.table(),
            relation.catalog(),
            relation.identifier(),
            new CaseInsensitiveStringMap(options),
            Option.empty());
    List<Column> columns = new ArrayList<>();
    for (String key : CrossPartitionUpsert.primaryKeys(relation.table())) {
      columns.add(column(key).as(KEY + key));
    }
    for (String partition : CrossPartitionUpsert.partitionKeys(relation.table())) {
      columns.add(column(partition).as(OLD + partition));
    }
    columns.add(column(PAIMON_BUCKET).as(OLD_BUCKET));
    return Dataset.ofRows(session, read).select(columns.toArray(new Column[0]));
  }

  private static Dataset<Row> withExisting(Dataset<Row> input, Dataset<Row> existing, Table t) {
    Column on = null;
    for (String key : CrossPartitionUpsert.primaryKeys(t)) {
      Column equal = input.col(quote(key)).equalTo(existing.col(quote(KEY + key)));
      on = on == null ? equal : on.and(equal);
    }
    Dataset<Row> joined = input.join(existing, on, "left_outer");
    for (String key : CrossPartitionUpsert.primaryKeys(t)) {
      joined = joined.drop(KEY + key);
    }
    return joined;
  }

  /** An empty table: no key has a partition yet. */
  private static Dataset<Row> withoutExisting(Dataset<Row> input, Table t) {
    Dataset<Row> joined = input;
    for (String partition : CrossPartitionUpsert.partitionKeys(t)) {
      joined =
          joined.withColumn(
              OLD + partition, lit(null).cast(input.schema().apply(partition).dataType()));
    }
    return joined.withColumn(OLD_BUCKET, lit(null).cast("int"));
  }

  /** The rows to write, per the merge engine's rule; {@code columns}: table columns, then order. */
  private static Dataset<Row> route(Dataset<Row> joined, Table table, String[] columns) {
    List<Column> keys = new ArrayList<>();
    for (String key : CrossPartitionUpsert.primaryKeys(table)) {
      keys.add(column(key));
    }
    WindowSpec byKey = Window.partitionBy(keys.toArray(new Column[0]));
    Column order = column(CrossPartitionUpsert.ORDER);
    Column exists = column(OLD_BUCKET).isNotNull();
    List<String> partitions = CrossPartitionUpsert.partitionKeys(table);
    CrossPartitionRule rule = CrossPartitionUpsert.rule(table);
    return switch (rule) {
      case MOVE -> {
        // the last row of each key wins; it deletes the key where it was if it moves
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
        yield last.select(
                explode(when(moved, array(insert, delete)).otherwise(array(insert))).as("r"))
            .select("r.*");
      }
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

  private static StructType nullable(StructType schema) {
    StructField[] fields = schema.fields();
    StructField[] result = new StructField[fields.length];
    for (int i = 0; i < fields.length; i++) {
      result[i] =
          new StructField(fields[i].name(), fields[i].dataType(), true, fields[i].metadata());
    }
    return new StructType(result);
  }

  private static Column column(String name) {
    return col(quote(name));
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
