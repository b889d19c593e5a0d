package io.basalt.spark;

import io.basalt.schema.TableSchema;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * A table created or replaced by a statement that has not finished: Spark writes the rows of an
 * {@code AS SELECT} into it, then commits or aborts it. It shows the table as it will look.
 */
final class StagedSparkTable implements StagedTable, SupportsWrite {
  private final String name;
  private final TableSchema preview;
  private final Function<LogicalWriteInfo, WriteBuilder> writes;
  private final Runnable commit;
  private final Runnable abort;

  /**
   * @param name the table's name
   * @param preview the table's definition as it will look once committed (the statement's write
   *     options may still add table options)
   * @param writes the write of the statement's rows
   * @param commit what finishes the statement after the rows were written (if any)
   * @param abort what undoes the statement when it fails
   */
  StagedSparkTable(
      String name,
      TableSchema preview,
      Function<LogicalWriteInfo, WriteBuilder> writes,
      Runnable commit,
      Runnable abort) {
    this.name = name;
    this.preview = preview;
    this.writes = writes;
    this.commit = commit;
    this.abort = abort;
  }

  @Override
  public void commitStagedChanges() {
    commit.run();
  }

  @Override
  public void abortStagedChanges() {
    abort.run();
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return writes.apply(info);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StructType schema() {
    return SparkTable.sparkSchema(preview);
  }

  @Override
  public Transform[] partitioning() {
    return preview.partitionKeys().stream().map(Expressions::identity).toArray(Transform[]::new);
  }

  @Override
  public Map<String, String> properties() {
    return preview.options();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return SparkTable.CAPABILITIES;
  }
}
