package io.basalt.spark.extensions.rules;

import static org.apache.spark.sql.functions.monotonically_increasing_id;

import io.basalt.spark.extensions.ScalaInterop;
import io.basalt.spark.write.CrossPartitionUpsert;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Not;
import org.apache.spark.sql.catalyst.plans.logical.AppendData;
import org.apache.spark.sql.catalyst.plans.logical.AppendData$;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.OverwriteByExpression;
import org.apache.spark.sql.catalyst.plans.logical.OverwriteByExpression$;
import org.apache.spark.sql.catalyst.plans.logical.OverwritePartitionsDynamic;
import org.apache.spark.sql.catalyst.plans.logical.OverwritePartitionsDynamic$;
import org.apache.spark.sql.catalyst.plans.logical.V2WriteCommand;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.catalyst.types.DataTypeUtils;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.Option;

/**
 * Routes writes to a cross-partition upsert table (a primary key without every partition column):
 * Basalt's replacement for Paimon's RocksDB key index. The rule rewrites the query of an INSERT
 * INTO, DataFrame append or INSERT OVERWRITE into a join of the new rows with the table's current
 * keys, read at the latest snapshot as key columns, partition columns and {@code __paimon_bucket},
 * and applies the merge engine's rule per key with window functions over the key ({@link
 * CrossPartitionRoutes}). Everything stays distributed and spills like any Spark join and window;
 * nothing is collected in the driver. Each output row names its bucket (the key's current bucket,
 * or -1 for the HASH index to assign one in the new partition) and whether it deletes the key from
 * its old partition; the routed table's write commits them, failing if another write committed
 * after the snapshot the keys were read from.
 *
 * <p>It runs after resolution, when the write's query has the table's columns. Rewriting the query
 * (rather than looking keys up inside the write's tasks) lets Spark plan the lookup as a join, with
 * its own shuffles, spilling and adaptive execution.
 */
public final class CrossPartitionUpsertRouting extends Rule<LogicalPlan> {
  private final SparkSession session;

  public CrossPartitionUpsertRouting(SparkSession session) {
    this.session = session;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (!(plan instanceof V2WriteCommand write)
        || !write.resolved()
        || !(write.table() instanceof DataSourceV2Relation relation)
        || !CrossPartitionUpsert.applies(relation.table())) {
      return plan;
    }
    if (plan instanceof AppendData append) {
      return rewrite(relation, append.query(), null, false, append.writeOptions());
    }
    if (plan instanceof OverwriteByExpression overwrite) {
      return rewrite(
          relation, overwrite.query(), overwrite.deleteExpr(), false, overwrite.writeOptions());
    }
    if (plan instanceof OverwritePartitionsDynamic dynamic) {
      return rewrite(relation, dynamic.query(), null, true, dynamic.writeOptions());
    }
    return plan;
  }

  /**
   * @param deleteExpr a static overwrite's partition condition (null otherwise)
   * @param dynamic whether this is a dynamic overwrite
   */
  private LogicalPlan rewrite(
      DataSourceV2Relation relation,
      LogicalPlan query,
      Expression deleteExpr,
      boolean dynamic,
      scala.collection.immutable.Map<String, String> options) {
    Table table = relation.table();
    CrossPartitionRoutes routes = new CrossPartitionRoutes(table);
    Long snapshot = CrossPartitionUpsert.latestSnapshotId(table);
    org.apache.spark.sql.classic.SparkSession classic =
        (org.apache.spark.sql.classic.SparkSession) session;
    Dataset<Row> input =
        org.apache.spark.sql.classic.Dataset.ofRows(classic, query)
            .withColumn(CrossPartitionUpsert.ORDER, monotonically_increasing_id());
    boolean overwrite = deleteExpr != null || dynamic;
    Dataset<Row> joined;
    if (snapshot == null) {
      joined = routes.withoutExisting(input);
    } else {
      Dataset<Row> existing = existingKeys(classic, relation, snapshot, routes, deleteExpr);
      if (dynamic) {
        existing = routes.outsidePartitionsOf(existing, input);
      }
      joined = routes.join(input, existing);
    }
    Dataset<Row> routed = routes.route(joined, input.columns(), overwrite);
    DataSourceV2Relation target = target(relation, routed.schema(), snapshot);
    LogicalPlan routedPlan = analyzed(routed);
    if (deleteExpr != null) {
      return OverwriteByExpression$.MODULE$.byPosition(target, routedPlan, deleteExpr, options);
    }
    if (dynamic) {
      return OverwritePartitionsDynamic$.MODULE$.byPosition(target, routedPlan, options);
    }
    return AppendData$.MODULE$.byPosition(target, routedPlan, options);
  }

  /**
   * The table's keys at {@code snapshot} with their partition and bucket, renamed apart; for a
   * static overwrite only those outside the overwritten partitions. The read shares the write
   * relation's attributes, so the overwrite condition applies to it as it is.
   */
  private static Dataset<Row> existingKeys(
      org.apache.spark.sql.classic.SparkSession session,
      DataSourceV2Relation relation,
      long snapshot,
      CrossPartitionRoutes routes,
      Expression deleteExpr) {
    Map<String, String> options = new HashMap<>();
    options.put("scan.snapshot-id", String.valueOf(snapshot));
    DataSourceV2Relation read =
        relation.copy(
            relation.table(),
            relation.output(),
            relation.catalog(),
            relation.identifier(),
            new CaseInsensitiveStringMap(options),
            Option.empty());
    Dataset<Row> keys =
        org.apache.spark.sql.classic.Dataset.ofRows(session, read)
            .select(routes.keyColumns().toArray(new Column[0]));
    if (deleteExpr != null) {
      keys =
          org.apache.spark.sql.classic.Dataset.ofRows(
              session, new Filter(new Not(deleteExpr), analyzed(keys)));
    }
    return routes.renamed(keys);
  }

  private static LogicalPlan analyzed(Dataset<Row> dataset) {
    return ((org.apache.spark.sql.classic.Dataset<Row>) dataset).queryExecution().analyzed();
  }

  /**
   * The routed table as the write's relation. Its table columns keep the write relation's
   * attributes (nullable, as the routed rows are), so an overwrite condition still refers to them.
   */
  private static DataSourceV2Relation target(
      DataSourceV2Relation relation, StructType routed, Long snapshot) {
    Map<String, AttributeReference> tableColumns = new HashMap<>();
    for (Attribute attribute : ScalaInterop.toJava(relation.output())) {
      tableColumns.put(attribute.name(), (AttributeReference) attribute.withNullability(true));
    }
    List<StructField> fields = new ArrayList<>();
    for (StructField field : routed.fields()) {
      fields.add(new StructField(field.name(), field.dataType(), true, field.metadata()));
    }
    StructType schema = new StructType(fields.toArray(new StructField[0]));
    List<AttributeReference> output = new ArrayList<>();
    for (AttributeReference fresh : ScalaInterop.toJava(DataTypeUtils.toAttributes(schema))) {
      output.add(tableColumns.getOrDefault(fresh.name(), fresh));
    }
    return new DataSourceV2Relation(
        CrossPartitionUpsert.routed(relation.table(), schema, snapshot),
        ScalaInterop.toScala(output).toSeq(),
        relation.catalog(),
        relation.identifier(),
        CaseInsensitiveStringMap.empty(),
        Option.empty());
  }
}
