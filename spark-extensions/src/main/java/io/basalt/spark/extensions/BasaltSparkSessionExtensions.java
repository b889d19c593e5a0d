package io.basalt.spark.extensions;

import io.basalt.spark.extensions.functions.IncrementalTableFunctions;
import io.basalt.spark.extensions.parser.BasaltSqlParser;
import io.basalt.spark.extensions.rules.CrossPartitionUpsertRouting;
import io.basalt.spark.extensions.rules.HiveStyleDynamicPartitions;
import io.basalt.spark.extensions.rules.KeyColumnUpdateCheck;
import io.basalt.spark.extensions.rules.NullKeyCheck;
import io.basalt.spark.extensions.rules.RepartitionLargeBlobScan;
import io.basalt.spark.extensions.rules.ReplaceTableConstraintCheck;
import io.basalt.spark.extensions.rules.RowTrackingColumnCheck;
import io.basalt.spark.extensions.rules.SaveAsTableOverwrite;
import io.basalt.spark.extensions.schema.MergeSchemaMarker;
import io.basalt.spark.extensions.schema.MergeSchemaOnWrite;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.ColumnarRule;
import org.apache.spark.sql.execution.SparkPlan;
import scala.Function1;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * The session extensions users install with {@code
 * spark.sql.extensions=io.basalt.spark.extensions.BasaltSparkSessionExtensions}. Spark 4.1 routes
 * everything Basalt needs so far (catalog, {@code CALL}, time travel, row-level operations)
 * natively; this adds the analysis check that rejects UPDATE and MERGE INTO assignments to key
 * columns ({@link KeyColumnUpdateCheck}), the check that refuses REPLACE TABLE with constraints
 * Spark would drop ({@link ReplaceTableConstraintCheck}), and the resolution rule for Paimon's
 * Hive-ordered dynamic partition inserts ({@link HiveStyleDynamicPartitions}) and the rule that
 * runs {@code saveAsTable} overwrites as Paimon does ({@link SaveAsTableOverwrite}), the rule that
 * names the row-tracking option when a query reads {@code _ROW_ID} of a table without it ({@link
 * RowTrackingColumnCheck}), the rule that names the key column a NULL was written to ({@link
 * NullKeyCheck}), the rule that routes appends to cross-partition upsert tables ({@link
 * CrossPartitionUpsertRouting}), a parser that accepts {@code SET
 * spark.paimon.<hyphenated-key>=value} as Paimon's docs write it ({@link BasaltSqlParser}), and the
 * incremental table-valued functions ({@link IncrementalTableFunctions}), and schema evolution on
 * write ({@link MergeSchemaMarker}, {@link MergeSchemaOnWrite}). {@link RepartitionLargeBlobScan}
 * runs on physical plans: as a query stage preparation rule under adaptive execution and as a
 * columnar rule otherwise, both after Spark inserted its exchanges.
 */
public class BasaltSparkSessionExtensions
    extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectCheckRule(
        new AbstractFunction1<SparkSession, Function1<LogicalPlan, BoxedUnit>>() {
          @Override
          public Function1<LogicalPlan, BoxedUnit> apply(SparkSession session) {
            return new KeyColumnUpdateCheck();
          }
        });
    extensions.injectCheckRule(
        new AbstractFunction1<SparkSession, Function1<LogicalPlan, BoxedUnit>>() {
          @Override
          public Function1<LogicalPlan, BoxedUnit> apply(SparkSession session) {
            return new ReplaceTableConstraintCheck();
          }
        });
    extensions.injectResolutionRule(
        new AbstractFunction1<SparkSession, Rule<LogicalPlan>>() {
          @Override
          public Rule<LogicalPlan> apply(SparkSession session) {
            return new HiveStyleDynamicPartitions(session);
          }
        });
    extensions.injectResolutionRule(
        new AbstractFunction1<SparkSession, Rule<LogicalPlan>>() {
          @Override
          public Rule<LogicalPlan> apply(SparkSession session) {
            return new SaveAsTableOverwrite(session);
          }
        });
    extensions.injectResolutionRule(
        new AbstractFunction1<SparkSession, Rule<LogicalPlan>>() {
          @Override
          public Rule<LogicalPlan> apply(SparkSession session) {
            return new RowTrackingColumnCheck();
          }
        });
    extensions.injectQueryStagePrepRule(
        new AbstractFunction1<SparkSession, Rule<SparkPlan>>() {
          @Override
          public Rule<SparkPlan> apply(SparkSession session) {
            return new RepartitionLargeBlobScan();
          }
        });
    extensions.injectColumnar(
        new AbstractFunction1<SparkSession, ColumnarRule>() {
          @Override
          public ColumnarRule apply(SparkSession session) {
            return RepartitionLargeBlobScan.columnarRule();
          }
        });
    extensions.injectPostHocResolutionRule(
        new AbstractFunction1<SparkSession, Rule<LogicalPlan>>() {
          @Override
          public Rule<LogicalPlan> apply(SparkSession session) {
            return new NullKeyCheck();
          }
        });
    extensions.injectPostHocResolutionRule(
        new AbstractFunction1<SparkSession, Rule<LogicalPlan>>() {
          @Override
          public Rule<LogicalPlan> apply(SparkSession session) {
            return new CrossPartitionUpsertRouting(session);
          }
        });
    extensions.injectHintResolutionRule(
        ScalaInterop.<SparkSession, Rule<LogicalPlan>>function(MergeSchemaMarker::new));
    extensions.injectResolutionRule(
        ScalaInterop.<SparkSession, Rule<LogicalPlan>>function(MergeSchemaOnWrite::new));
    IncrementalTableFunctions.register(extensions);
    extensions.injectParser(
        new AbstractFunction2<SparkSession, ParserInterface, ParserInterface>() {
          @Override
          public ParserInterface apply(SparkSession session, ParserInterface delegate) {
            return new BasaltSqlParser(delegate);
          }
        });
    return BoxedUnit.UNIT;
  }
}
