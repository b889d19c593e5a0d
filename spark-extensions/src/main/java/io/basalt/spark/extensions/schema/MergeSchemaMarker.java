package io.basalt.spark.extensions.schema;

import io.basalt.spark.SparkCatalog;
import io.basalt.spark.SparkTable;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.AppendData;
import org.apache.spark.sql.catalyst.plans.logical.InsertIntoStatement;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;
import org.apache.spark.sql.catalyst.plans.logical.OverwriteByExpression;
import org.apache.spark.sql.catalyst.plans.logical.OverwritePartitionsDynamic;
import org.apache.spark.sql.catalyst.plans.logical.UnresolvedHint;
import org.apache.spark.sql.catalyst.plans.logical.V2WriteCommand;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The first half of schema evolution on write, run with the hint rules, before Spark resolves the
 * write: Spark checks a write's columns against the table as soon as both are resolved and fails on
 * extra columns, so a write that asks for merge-schema gets its query wrapped in a projection that
 * stays unresolved until {@link MergeSchemaOnWrite} has evolved the table and aligned the columns.
 * A MERGE INTO is switched to Spark's own schema evolution, which adds the source's columns through
 * the catalog's alterTable (Basalt tables declare AUTOMATIC_SCHEMA_EVOLUTION).
 */
public final class MergeSchemaMarker extends Rule<LogicalPlan> {
  /** The name of the hint that marks a pending write. */
  static final String MARKER = "__basalt_merge_schema_pending";

  private final SparkSession session;
  private final MergeSchemaOnWrite onWrite;

  public MergeSchemaMarker(SparkSession session) {
    this.session = session;
    this.onWrite = new MergeSchemaOnWrite(session);
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (plan instanceof MergeIntoTable merge
        && !merge.withSchemaEvolution()
        && MergeSchemaSettings.requested(session, Map.of())) {
      return merge.copy(
          merge.targetTable(),
          merge.sourceTable(),
          merge.mergeCondition(),
          merge.matchedActions(),
          merge.notMatchedActions(),
          merge.notMatchedBySourceActions(),
          true);
    }
    if (plan instanceof InsertIntoStatement insert
        && insert.userSpecifiedCols().isEmpty()
        && !isMarked(insert.query())
        && (MergeSchemaSettings.requested(session, Map.of()) || tableAsks(insert.table()))) {
      return insert.withNewChildren(
          CollectionConverters.asScala(List.of(mark(insert.query()))).toSeq());
    }
    if (plan instanceof V2WriteCommand write
        && (write instanceof AppendData
            || write instanceof OverwriteByExpression
            || write instanceof OverwritePartitionsDynamic)
        && !isMarked(write.query())
        && (MergeSchemaSettings.requested(session, writeOptions(write))
            || tableAsks((LogicalPlan) write.table()))) {
      // a DataFrame write: evolve now, before Spark checks the columns (Spark drops unknown hints
      // around a DataFrame's query before the resolution rules run, so it cannot carry the marker)
      DataSourceV2Relation relation = relation(write);
      if (relation == null) {
        return (LogicalPlan) write.withNewQuery(mark(write.query()));
      }
      // the query is complete on its own, but some arrive not yet analyzed: analyze it here
      LogicalPlan query =
          write.query().resolved()
              ? write.query()
              : session
                  .sessionState()
                  .executePlan(write.query(), session.sessionState().executePlan$default$2())
                  .analyzed();
      V2WriteCommand analyzed = (V2WriteCommand) write.withNewQuery(query);
      if (onWrite.aligned(analyzed, relation)) {
        // evolved and aligned already (this batch runs to a fixed point)
        return (LogicalPlan) analyzed;
      }
      return onWrite.write(analyzed.withNewTable(relation), query);
    }
    return plan;
  }

  static boolean isMarked(LogicalPlan query) {
    return query instanceof UnresolvedHint hint && hint.name().equals(MARKER);
  }

  /** The query a marked query wraps. */
  static LogicalPlan unmarked(LogicalPlan query) {
    return ((UnresolvedHint) query).child();
  }

  static Map<String, String> writeOptions(V2WriteCommand write) {
    scala.collection.immutable.Map<String, String> options =
        write instanceof AppendData a
            ? a.writeOptions()
            : write instanceof OverwriteByExpression o
                ? o.writeOptions()
                : ((OverwritePartitionsDynamic) write).writeOptions();
    return CollectionConverters.asJava(options);
  }

  // a hint Spark does not know keeps the query unresolved, without an error, until Spark drops
  // unknown hints after resolution; MergeSchemaOnWrite removes it first
  private static LogicalPlan mark(LogicalPlan query) {
    return new UnresolvedHint(
        MARKER, CollectionConverters.asScala(List.<Expression>of()).toSeq(), query);
  }

  /** Whether the write's table is a Basalt table whose own option turns merge-schema on. */
  private boolean tableAsks(LogicalPlan table) {
    SparkTable sparkTable = null;
    if (table instanceof DataSourceV2Relation relation
        && relation.table() instanceof SparkTable loaded) {
      sparkTable = loaded;
    } else if (table instanceof UnresolvedRelation unresolved) {
      DataSourceV2Relation relation = lookup(unresolved);
      sparkTable = relation == null ? null : (SparkTable) relation.table();
    }
    return sparkTable != null
        && Boolean.parseBoolean(
            sparkTable
                .fileStoreTable()
                .schema()
                .options()
                .get(io.basalt.options.MergeSchemaOptions.MERGE_SCHEMA.key()));
  }

  /** The write's table as a relation when it is a Basalt table, else null. */
  private DataSourceV2Relation relation(V2WriteCommand write) {
    LogicalPlan table = (LogicalPlan) write.table();
    if (table instanceof DataSourceV2Relation relation) {
      return relation.table() instanceof SparkTable ? relation : null;
    }
    return table instanceof UnresolvedRelation unresolved ? lookup(unresolved) : null;
  }

  /** Loads a Basalt table the way Spark's relation resolution would; null for any other. */
  private DataSourceV2Relation lookup(UnresolvedRelation unresolved) {
    List<String> parts = CollectionConverters.asJava(unresolved.multipartIdentifier());
    CatalogManager catalogs = session.sessionState().catalogManager();
    CatalogPlugin catalog;
    List<String> name;
    if (parts.size() > 1 && catalogs.isCatalogRegistered(parts.get(0))) {
      catalog = catalogs.catalog(parts.get(0));
      name = parts.subList(1, parts.size());
    } else {
      catalog = catalogs.currentCatalog();
      name = parts;
    }
    if (!(catalog instanceof SparkCatalog basalt)) {
      return null;
    }
    String[] namespace =
        name.size() == 1
            ? catalogs.currentNamespace()
            : name.subList(0, name.size() - 1).toArray(new String[0]);
    Identifier ident = Identifier.of(namespace, name.get(name.size() - 1));
    if (!basalt.tableExists(ident)) {
      return null;
    }
    try {
      return basalt.loadTable(ident) instanceof SparkTable table
          ? DataSourceV2Relation.create(
              table,
              Option.<CatalogPlugin>apply(basalt),
              Option.apply(ident),
              // a write's options travel with the command, as after Spark's own resolution
              org.apache.spark.sql.util.CaseInsensitiveStringMap.empty(),
              Option.empty())
          : null;
    } catch (NoSuchTableException e) {
      return null; // dropped meanwhile: Spark reports the missing table itself
    }
  }
}
