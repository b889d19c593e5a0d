package io.basalt.spark.extensions.schema;

import io.basalt.BasaltException;
import io.basalt.options.MergeSchemaOptions;
import io.basalt.spark.SparkTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.InsertIntoStatement;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.V2WriteCommand;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The second half of schema evolution on write: once the write's table and data are resolved, it
 * compares their columns ({@link WriteSchemaMerge}), commits the added columns as a new schema
 * through the catalog's alterTable (so the schema is committed before, never after, the data), and
 * rewrites the data into the evolved table's columns ({@link WriteAlignment}). Spark's own write
 * resolution then runs on an exact match. A write to any other table, or with merge-schema off for
 * the table, just loses its marker (see {@link MergeSchemaMarker}).
 */
public final class MergeSchemaOnWrite extends Rule<LogicalPlan> {
  private final SparkSession session;

  public MergeSchemaOnWrite(SparkSession session) {
    this.session = session;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (plan instanceof InsertIntoStatement insert && MergeSchemaMarker.isMarked(insert.query())) {
      LogicalPlan data = MergeSchemaMarker.unmarked(insert.query());
      if (!insert.table().resolved() || !data.resolved()) {
        return plan;
      }
      return insert(insert, data);
    }
    if (plan instanceof V2WriteCommand write && MergeSchemaMarker.isMarked(write.query())) {
      LogicalPlan data = MergeSchemaMarker.unmarked(write.query());
      if (!((LogicalPlan) write.table()).resolved() || !data.resolved()) {
        return plan;
      }
      return write(write, data);
    }
    return plan;
  }

  private LogicalPlan insert(InsertIntoStatement insert, LogicalPlan data) {
    MergeSchemaSettings settings = settings(insert.table(), Map.of());
    if (settings == null || !settings.enabled()) {
      return insert.withNewChildren(CollectionConverters.asScala(List.of(data)).toSeq());
    }
    DataSourceV2Relation relation = (DataSourceV2Relation) insert.table();
    Set<String> fixed = new HashSet<>();
    insert
        .partitionSpec()
        .foreach(
            entry -> {
              if (entry._2().isDefined()) {
                fixed.add(entry._1());
              }
              return null;
            });
    NameMatch names = names();
    LogicalPlan named = insert.byName() ? data : byPosition(data, relation, fixed, names);
    if (named == null) {
      return insert.withNewChildren(CollectionConverters.asScala(List.of(data)).toSeq());
    }
    DataSourceV2Relation evolved = evolve(relation, named, settings, names);
    StructType target = without(evolved.schema(), fixed, names);
    LogicalPlan aligned = align(named, target, settings, names);
    return new InsertIntoStatement(
        evolved,
        insert.partitionSpec(),
        insert.userSpecifiedCols(),
        aligned,
        insert.overwrite(),
        insert.ifPartitionNotExists(),
        false);
  }

  /** The write over the evolved table with {@code data} aligned to it. */
  LogicalPlan write(V2WriteCommand write, LogicalPlan data) {
    MergeSchemaSettings settings =
        settings((LogicalPlan) write.table(), MergeSchemaMarker.writeOptions(write));
    if (settings == null || !settings.enabled()) {
      return (LogicalPlan) write.withNewQuery(data);
    }
    DataSourceV2Relation relation = (DataSourceV2Relation) write.table();
    NameMatch names = names();
    LogicalPlan named = write.isByName() ? data : byPosition(data, relation, Set.of(), names);
    if (named == null) {
      return (LogicalPlan) write.withNewQuery(data);
    }
    DataSourceV2Relation evolved = evolve(relation, named, settings, names);
    LogicalPlan aligned = align(named, evolved.schema(), settings, names);
    return (LogicalPlan) write.withNewTable(evolved).withNewQuery(aligned);
  }

  /**
   * Whether a DataFrame write (whose query arrives resolved) needs nothing more: its data has the
   * table's columns and nested fields, by name and in order, with types Spark stores by itself, and
   * brings no schema change. True for this rule's own output, so the hint batch reaches a fixed
   * point, and for a write whose table does not ask for merge-schema.
   */
  boolean aligned(V2WriteCommand write, DataSourceV2Relation relation) {
    MergeSchemaSettings settings = settings(relation, MergeSchemaMarker.writeOptions(write));
    if (settings == null || !settings.enabled()) {
      return true;
    }
    StructType data = write.query().schema();
    SparkTable table = (SparkTable) relation.table();
    return aligned(data, relation.schema())
        && WriteSchemaMerge.changes(table.name(), table.schema(), data, settings, names())
            .isEmpty();
  }

  private static boolean aligned(DataType data, DataType table) {
    if (data instanceof StructType dataStruct && table instanceof StructType tableStruct) {
      StructField[] dataFields = dataStruct.fields();
      StructField[] tableFields = tableStruct.fields();
      if (dataFields.length != tableFields.length) {
        return false;
      }
      for (int i = 0; i < dataFields.length; i++) {
        if (!dataFields[i].name().equals(tableFields[i].name())
            || !aligned(dataFields[i].dataType(), tableFields[i].dataType())) {
          return false;
        }
      }
      return true;
    } else if (data instanceof ArrayType dataArray && table instanceof ArrayType tableArray) {
      return aligned(dataArray.elementType(), tableArray.elementType());
    } else if (data instanceof MapType dataMap && table instanceof MapType tableMap) {
      return aligned(dataMap.keyType(), tableMap.keyType())
          && aligned(dataMap.valueType(), tableMap.valueType());
    }
    return WriteAlignment.sameType(data, table) || Cast.canANSIStoreAssign(data, table);
  }

  /** The switches for a Basalt table, or null for any other table. */
  private MergeSchemaSettings settings(LogicalPlan table, Map<String, String> writeOptions) {
    if (!(table instanceof DataSourceV2Relation relation)
        || !(relation.table() instanceof SparkTable sparkTable)) {
      return null;
    }
    return MergeSchemaSettings.of(
        session, writeOptions, sparkTable.fileStoreTable().schema().options());
  }

  /** Commits the columns the data adds; the relation over the evolved table (or the same one). */
  private DataSourceV2Relation evolve(
      DataSourceV2Relation relation,
      LogicalPlan data,
      MergeSchemaSettings settings,
      NameMatch names) {
    SparkTable table = (SparkTable) relation.table();
    List<TableChange> changes =
        WriteSchemaMerge.changes(table.name(), table.schema(), data.schema(), settings, names);
    if (changes.isEmpty()) {
      return relation;
    }
    if (relation.catalog().isEmpty()
        || relation.identifier().isEmpty()
        || !(relation.catalog().get() instanceof TableCatalog catalog)) {
      throw new BasaltException(
          String.format(
              "Cannot add columns to table %s on write: it was loaded by path, not through a"
                  + " catalog. Fix: write through the catalog (df.writeTo(\"catalog.db.table\")"
                  + " or INSERT INTO), or add the columns with ALTER TABLE first.",
              table.name()));
    }
    Table altered;
    try {
      altered =
          catalog.alterTable(relation.identifier().get(), changes.toArray(new TableChange[0]));
    } catch (NoSuchTableException e) {
      throw new BasaltException("Table " + table.name() + " was dropped during the write", e);
    } catch (BasaltException e) {
      // the schema rules refused a change (a key column's type, say): say which write needed it
      throw new BasaltException(
          String.format(
              "Cannot write to table %s with '%s': the schema change the data needs was refused."
                  + " Nothing was written. %s",
              table.name(), MergeSchemaOptions.MERGE_SCHEMA.key(), e.getMessage()),
          e);
    }
    return relation.copy(
        altered,
        output(relation, ((SparkTable) altered).schema(), names),
        relation.catalog(),
        relation.identifier(),
        relation.options(),
        relation.timeTravelSpec());
  }

  /** The evolved table's columns, keeping the attribute ids of the columns it had. */
  private static scala.collection.immutable.Seq<AttributeReference> output(
      DataSourceV2Relation relation, StructType schema, NameMatch names) {
    List<AttributeReference> old = CollectionConverters.asJava(relation.output());
    List<AttributeReference> output = new ArrayList<>();
    for (StructField field : schema.fields()) {
      AttributeReference fresh =
          new AttributeReference(
              field.name(),
              field.dataType(),
              field.nullable(),
              field.metadata(),
              org.apache.spark.sql.catalyst.expressions.NamedExpression$.MODULE$.newExprId(),
              CollectionConverters.asScala(List.<String>of()).toSeq());
      for (AttributeReference attribute : old) {
        if (names.same(attribute.name(), field.name())) {
          fresh = fresh.withExprId(attribute.exprId()).withQualifier(attribute.qualifier());
          break;
        }
      }
      output.add(fresh);
    }
    return CollectionConverters.asScala(output).toSeq();
  }

  /**
   * A positional write names its first columns after the table's (the partition columns a PARTITION
   * clause fixes excepted); the columns beyond them keep their own names and are the new ones. Null
   * when the data has fewer columns than the table, which Spark reports itself.
   */
  private static LogicalPlan byPosition(
      LogicalPlan data, DataSourceV2Relation relation, Set<String> fixed, NameMatch names) {
    StructType columns = without(relation.schema(), fixed, names);
    List<Attribute> output = CollectionConverters.asJava(data.output());
    if (output.size() < columns.size()) {
      return null;
    }
    List<NamedExpression> projection = new ArrayList<>();
    for (int i = 0; i < output.size(); i++) {
      Attribute attribute = output.get(i);
      projection.add(
          i < columns.size()
              ? WriteAlignment.alias(attribute, columns.fields()[i].name())
              : attribute);
    }
    return new Project(CollectionConverters.asScala(projection).toSeq(), data);
  }

  private static LogicalPlan align(
      LogicalPlan data, StructType target, MergeSchemaSettings settings, NameMatch names) {
    List<NamedExpression> projection =
        new WriteAlignment(settings, names)
            .align(CollectionConverters.asJava(data.output()), target);
    return new Project(CollectionConverters.asScala(projection).toSeq(), data);
  }

  private static StructType without(StructType schema, Set<String> fixed, NameMatch names) {
    List<StructField> kept = new ArrayList<>();
    for (StructField field : schema.fields()) {
      if (fixed.stream().noneMatch(name -> names.same(name, field.name()))) {
        kept.add(field);
      }
    }
    return new StructType(kept.toArray(new StructField[0]));
  }

  private NameMatch names() {
    return new NameMatch(session.sessionState().conf().caseSensitiveAnalysis());
  }
}
