package io.basalt.spark.extensions.rules;

import io.basalt.BasaltException;
import io.basalt.spark.extensions.ScalaInterop;
import io.basalt.spark.read.BlobScanSizing;
import io.basalt.spark.read.SparkInputPartition;
import io.basalt.spark.read.SparkScan;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.InputFileBlockLength;
import org.apache.spark.sql.catalyst.expressions.InputFileBlockStart;
import org.apache.spark.sql.catalyst.expressions.InputFileName;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.physical.RoundRobinPartitioning;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.catalyst.trees.TreeNodeTag;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.execution.ColumnarRule;
import org.apache.spark.sql.execution.FilterExec;
import org.apache.spark.sql.execution.ProjectExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.exchange.Exchange;
import org.apache.spark.sql.execution.exchange.REPARTITION_BY_NUM$;
import org.apache.spark.sql.execution.exchange.ShuffleExchangeExec;
import org.apache.spark.sql.internal.SQLConf;
import scala.Option;
import scala.collection.immutable.Seq;

/**
 * Inserts a round-robin shuffle right above a Basalt batch scan of a table with BLOB columns when
 * one of its input partitions holds more than twice the target partition size, so the work after
 * the scan (decoding, inference) gets more tasks than the few huge input partitions give. Seed
 * 003's "Repartition Oversized Scan Output":
 *
 * <ul>
 *   <li>off unless {@value #ENABLED} is true; off, the plan is returned as it is, unvisited;
 *   <li>only tables whose full schema has a BLOB column ({@link BlobScanSizing#hasBlobColumn()});
 *       other scans are skipped before their input partitions are asked for;
 *   <li>target = {@link BlobScanSizing#maxPartitionBytes}; it triggers when an input partition's
 *       {@link SparkInputPartition#fileBytes()} exceed 2 x target, and asks for ceil(total bytes /
 *       target) partitions, inserted only when that is more than the scan has;
 *   <li>leaves alone streaming plans, a scan with an exchange directly above it (through the scan's
 *       own projections and filters), a scan that reports a partitioning or an ordering (something
 *       above may rely on it), and scans below {@code input_file_name()}, {@code
 *       input_file_block_start()} or {@code input_file_block_length()}, which need the reader's
 *       file context a shuffle loses.
 * </ul>
 *
 * <p>It works on the physical plan after Spark inserted its own exchanges, where the planned
 * partitions and the dynamic partition pruning filters exist: the pruning filters are part of the
 * {@link BatchScanExec} (its runtime filters), so the shuffle lands above them and they still reach
 * the scan. Two hooks run it: as a query stage preparation rule when adaptive execution manages the
 * plan, and before the columnar transitions otherwise ({@link #columnarRule()}). A scan decided
 * once is tagged, so the columnar pass that adaptive execution runs again on each new stage, which
 * sees only part of the plan, leaves it as decided.
 */
public final class RepartitionLargeBlobScan extends Rule<SparkPlan> {
  /** The session conf that turns the rule on (default false). */
  public static final String ENABLED = "spark.paimon.read.repartition-large-blob-scan.enabled";

  private static final String SPARK_MAX_PARTITION_BYTES = "spark.sql.files.maxPartitionBytes";

  private static final TreeNodeTag<Boolean> DECIDED =
      TreeNodeTag.apply("basalt.repartitionLargeBlobScan.decided");

  /** The same rule, run before Spark inserts the columnar-to-row transitions. */
  public static ColumnarRule columnarRule() {
    RepartitionLargeBlobScan rule = new RepartitionLargeBlobScan();
    return new ColumnarRule() {
      @Override
      public Rule<SparkPlan> preColumnarTransitions() {
        return rule;
      }
    };
  }

  @Override
  public SparkPlan apply(SparkPlan plan) {
    String value = SQLConf.get().getConfString(ENABLED, "false").trim();
    if (value.equalsIgnoreCase("false")) {
      return plan;
    }
    if (!value.equalsIgnoreCase("true")) {
      // only a query that reads Basalt fails: the SET that fixes the value must still run
      if (plan.find(ScalaInterop.function(RepartitionLargeBlobScan::isBasaltScan)).isDefined()) {
        throw new BasaltException(
            String.format(
                "Invalid value '%s' for session conf '%s': expected true or false. Fix: SET %s"
                    + " = true to repartition oversized blob scans, or false to leave them.",
                value, ENABLED, ENABLED));
      }
      return plan;
    }
    Option<LogicalPlan> logical = plan.logicalLink();
    if (logical.isDefined() && logical.get().isStreaming()) {
      return plan;
    }
    return visit(plan, false, false);
  }

  private static boolean isBasaltScan(SparkPlan node) {
    return node instanceof BatchScanExec scan && scan.scan() instanceof SparkScan;
  }

  /**
   * @param fileContextAbove whether a node above reads the input file functions
   * @param exchangeAbove whether an exchange sits directly above (through projections/filters)
   */
  private SparkPlan visit(SparkPlan node, boolean fileContextAbove, boolean exchangeAbove) {
    if (node instanceof BatchScanExec scan) {
      return decide(scan, fileContextAbove || exchangeAbove);
    }
    boolean fileContext = fileContextAbove || readsInputFile(node);
    boolean exchange =
        node instanceof Exchange
            || (exchangeAbove && (node instanceof ProjectExec || node instanceof FilterExec));
    List<SparkPlan> children = ScalaInterop.toJava(node.children());
    List<SparkPlan> visited = new ArrayList<>(children.size());
    boolean changed = false;
    for (SparkPlan child : children) {
      SparkPlan after = visit(child, fileContext, exchange);
      changed |= after != child;
      visited.add(after);
    }
    return changed ? node.withNewChildren(ScalaInterop.toScala(visited)) : node;
  }

  private static boolean readsInputFile(SparkPlan node) {
    for (Expression expression : ScalaInterop.toJava(node.expressions())) {
      if (readsInputFile(expression)) {
        return true;
      }
    }
    return false;
  }

  private static boolean readsInputFile(Expression expression) {
    if (expression instanceof InputFileName
        || expression instanceof InputFileBlockStart
        || expression instanceof InputFileBlockLength) {
      return true;
    }
    for (Expression child : ScalaInterop.toJava(expression.children())) {
      if (readsInputFile(child)) {
        return true;
      }
    }
    return false;
  }

  private SparkPlan decide(BatchScanExec scan, boolean leaveAlone) {
    if (scan.getTagValue(DECIDED).isDefined() || !(scan.scan() instanceof SparkScan basalt)) {
      return scan;
    }
    scan.setTagValue(DECIDED, true);
    if (leaveAlone
        || scan.spjParams().keyGroupedPartitioning().isDefined()
        || (scan.ordering().isDefined() && scan.ordering().get().nonEmpty())) {
      return scan;
    }
    BlobScanSizing sizing = basalt.blobScanSizing();
    if (!sizing.hasBlobColumn()) {
      return scan; // before the partitions are asked for: nothing is planned for other tables
    }
    SQLConf conf = SQLConf.get();
    long target =
        sizing.maxPartitionBytes(
            conf.contains(SPARK_MAX_PARTITION_BYTES)
                ? OptionalLong.of(conf.filesMaxPartitionBytes())
                : OptionalLong.empty());
    List<InputPartition> partitions = ScalaInterop.toJava(scan.inputPartitions());
    long total = 0;
    boolean oversized = false;
    for (InputPartition partition : partitions) {
      long bytes = ((SparkInputPartition) partition).fileBytes();
      total += bytes;
      oversized |= bytes - target > target; // bytes > 2 x target, without overflow
    }
    long wanted = total / target + (total % target == 0 ? 0 : 1);
    if (!oversized || wanted <= partitions.size()) {
      return scan;
    }
    int count = (int) Math.min(wanted, Integer.MAX_VALUE);
    // a shuffle takes UnsafeRows; a row scan's readers return other rows (Spark's planner puts a
    // projection above such a scan, which is now above the shuffle), so project them here
    @SuppressWarnings("unchecked")
    SparkPlan input =
        scan.supportsColumnar()
            ? scan
            : new ProjectExec((Seq<NamedExpression>) (Seq<?>) scan.output(), scan);
    return new ShuffleExchangeExec(
        new RoundRobinPartitioning(count), input, REPARTITION_BY_NUM$.MODULE$, Option.empty());
  }
}
