package io.basalt.spark.extensions.rules;

import io.basalt.spark.SparkTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression$;
import org.apache.spark.sql.catalyst.plans.logical.InsertIntoStatement;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Paimon's {@code write.hive-style-dynamic-partition.enabled} (session conf {@code
 * spark.paimon.write.hive-style-dynamic-partition.enabled}, default false): a positional INSERT
 * with dynamic partitions ({@code PARTITION (dt, hr)}, or an INSERT OVERWRITE without PARTITION in
 * dynamic mode) takes its columns in Hive's order: the other columns in table order, then the
 * dynamic partition columns in partition-key order. Spark's own order is the table's. The rule
 * reorders the query into the table's order before Spark resolves the insert by position; a query
 * whose column names already follow the table's order is left alone, as Paimon does.
 */
public final class HiveStyleDynamicPartitions extends Rule<LogicalPlan> {
  /** The session conf that turns the Hive order on. */
  public static final String ENABLED = "spark.paimon.write.hive-style-dynamic-partition.enabled";

  private final SparkSession session;

  public HiveStyleDynamicPartitions(SparkSession session) {
    this.session = session;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (!(plan instanceof InsertIntoStatement insert)
        || !(insert.table() instanceof DataSourceV2Relation relation)
        || !(relation.table() instanceof SparkTable table)
        || !insert.query().resolved()
        || insert.byName()
        || !insert.userSpecifiedCols().isEmpty()
        || !Boolean.parseBoolean(session.conf().get(ENABLED, "false"))) {
      return plan;
    }
    List<String> partitionKeys = table.fileStoreTable().schema().partitionKeys();
    List<String> dynamic = new ArrayList<>();
    List<String> fixed = new ArrayList<>();
    scala.collection.Iterator<scala.Tuple2<String, Option<String>>> spec =
        insert.partitionSpec().iterator();
    while (spec.hasNext()) {
      scala.Tuple2<String, Option<String>> entry = spec.next();
      (entry._2().isDefined() ? fixed : dynamic).add(entry._1().toLowerCase(Locale.ROOT));
    }
    boolean allDynamic = insert.partitionSpec().isEmpty();
    if (allDynamic) {
      if (!insert.overwrite() || !dynamicOverwriteMode()) {
        return plan;
      }
      partitionKeys.forEach(key -> dynamic.add(key.toLowerCase(Locale.ROOT)));
    }
    if (dynamic.isEmpty()) {
      return plan;
    }
    return reorder(insert, relation, partitionKeys, fixed, dynamic, allDynamic);
  }

  private LogicalPlan reorder(
      InsertIntoStatement insert,
      DataSourceV2Relation relation,
      List<String> partitionKeys,
      List<String> fixed,
      List<String> dynamic,
      boolean allDynamic) {
    List<String> tableOrder = new ArrayList<>();
    List<String> hiveOrder = new ArrayList<>();
    scala.collection.Iterator<? extends Attribute> columns = relation.output().iterator();
    while (columns.hasNext()) {
      String name = columns.next().name();
      String lower = name.toLowerCase(Locale.ROOT);
      if (!fixed.contains(lower)) {
        tableOrder.add(name);
        if (!dynamic.contains(lower)) {
          hiveOrder.add(name);
        }
      }
    }
    for (String key : partitionKeys) {
      if (dynamic.contains(key.toLowerCase(Locale.ROOT))) {
        hiveOrder.add(key);
      }
    }
    List<Attribute> output = CollectionConverters.asJava(insert.query().output());
    List<String> names = output.stream().map(Attribute::name).toList();
    if (output.size() != tableOrder.size()
        || sameNames(hiveOrder, tableOrder)
        || sameNames(names, tableOrder)
        // without a PARTITION clause only a query whose names spell the Hive order says it
        || (allDynamic && !sameNames(names, hiveOrder))) {
      return insert;
    }
    List<NamedExpression> projection = new ArrayList<>();
    for (String column : tableOrder) {
      Attribute source = output.get(indexOf(hiveOrder, column));
      projection.add(
          new Alias(
              source,
              column,
              NamedExpression$.MODULE$.newExprId(),
              CollectionConverters.asScala(List.<String>of()).toSeq(),
              Option.empty(),
              CollectionConverters.asScala(List.<String>of()).toSeq()));
    }
    LogicalPlan query =
        new Project(CollectionConverters.asScala(projection).toSeq(), insert.query());
    return insert.withNewChildren(CollectionConverters.asScala(List.of(query)).toSeq());
  }

  private boolean dynamicOverwriteMode() {
    return "dynamic"
        .equalsIgnoreCase(session.conf().get("spark.sql.sources.partitionOverwriteMode", "static"));
  }

  private static int indexOf(List<String> names, String name) {
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(name)) {
        return i;
      }
    }
    throw new IllegalStateException("No column " + name + " in " + names);
  }

  private static boolean sameNames(List<String> left, List<String> right) {
    if (left.size() != right.size()) {
      return false;
    }
    for (int i = 0; i < left.size(); i++) {
      if (!left.get(i).equalsIgnoreCase(right.get(i))) {
        return false;
      }
    }
    return true;
  }
}
