package io.basalt.spark.extensions.rules;

import io.basalt.spark.SparkCatalog;
import io.basalt.spark.extensions.schema.MergeSchemaMarker;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.ResolvedIdentifier;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.OverwriteByExpression$;
import org.apache.spark.sql.catalyst.plans.logical.OverwritePartitionsDynamic$;
import org.apache.spark.sql.catalyst.plans.logical.ReplaceTableAsSelect;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.SupportsV1OverwriteWithSaveAsTable;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation$;
import scala.Option;
import scala.collection.immutable.Map;

/**
 * {@code df.write.format("paimon").mode("overwrite").saveAsTable(t)} on an existing Basalt table
 * overwrites its rows and keeps its definition (columns, partition keys, primary key, options) and
 * history, as Paimon does: Spark plans it as a REPLACE TABLE AS SELECT, which this rule turns into
 * an INSERT OVERWRITE by column name, of the whole table or, with {@code
 * spark.sql.sources.partitionOverwriteMode=dynamic} on a partitioned table, of the partitions
 * written. Spark marks such a statement with a write option ({@link
 * SupportsV1OverwriteWithSaveAsTable#OPTION_NAME}); a missing table is still created. With {@code
 * mergeSchema} the data's new columns are added first, as for any overwrite.
 */
public final class SaveAsTableOverwrite extends Rule<LogicalPlan> {
  private final SparkSession session;
  private final MergeSchemaMarker mergeSchema;

  public SaveAsTableOverwrite(SparkSession session) {
    this.session = session;
    this.mergeSchema = new MergeSchemaMarker(session);
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (!(plan instanceof ReplaceTableAsSelect replace)
        || !(replace.name() instanceof ResolvedIdentifier resolved)
        || !(resolved.catalog() instanceof SparkCatalog catalog)
        || !replace.writeOptions().contains(SupportsV1OverwriteWithSaveAsTable.OPTION_NAME)
        || !replace.query().resolved()) {
      return plan;
    }
    Identifier ident = resolved.identifier();
    if (!catalog.tableExists(ident)) {
      return plan;
    }
    Table table;
    try {
      table = catalog.loadTable(ident);
    } catch (NoSuchTableException e) {
      return plan; // dropped meanwhile: the REPLACE creates it
    }
    DataSourceV2Relation relation =
        DataSourceV2Relation$.MODULE$.create(table, Option.apply(catalog), Option.apply(ident));
    Map<String, String> options =
        replace.writeOptions().removed(SupportsV1OverwriteWithSaveAsTable.OPTION_NAME);
    boolean dynamic =
        table.partitioning().length > 0
            && "dynamic"
                .equalsIgnoreCase(
                    session.conf().get("spark.sql.sources.partitionOverwriteMode", "static"));
    LogicalPlan overwrite =
        dynamic
            ? OverwritePartitionsDynamic$.MODULE$.byName(relation, replace.query(), options)
            : OverwriteByExpression$.MODULE$.byName(
                relation, replace.query(), Literal$.MODULE$.TrueLiteral(), options);
    // the hint rules that start schema evolution on write ran before this one: evolve here, before
    // Spark checks the overwrite's columns against the table
    return mergeSchema.apply(overwrite);
  }
}
