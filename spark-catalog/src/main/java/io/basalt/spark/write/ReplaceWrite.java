package io.basalt.spark.write;

import io.basalt.bucket.PostponedBucket;
import io.basalt.operation.commit.CommitStateUnknownException;
import io.basalt.table.CommitMessage;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * The write of {@code REPLACE TABLE ... AS SELECT} into a table that keeps its history. Tasks write
 * files for the new schema as into an empty table, while the old snapshot stays the latest one, so
 * a query that reads the table it replaces still sees the old rows. The driver then hands the files
 * to {@code replace}, which removes the old rows, commits the new schema and then the files.
 */
public final class ReplaceWrite
    implements WriteBuilder, SupportsTruncate, Write, RequiresDistributionAndOrdering, BatchWrite {
  private final FileStoreTable target;
  private final Consumer<List<CommitMessage>> replace;
  private final String commitUser = UUID.randomUUID().toString();
  private boolean commitStateUnknown;

  /**
   * @param target the table with its new (not yet committed) schema
   * @param replace commits the replacement with the written files
   */
  public ReplaceWrite(FileStoreTable target, Consumer<List<CommitMessage>> replace) {
    this.target = target;
    this.replace = replace;
  }

  /** Every old row goes anyway: a truncating write is this write. */
  @Override
  public WriteBuilder truncate() {
    return this;
  }

  @Override
  public Write build() {
    return this;
  }

  @Override
  public String description() {
    return "BasaltReplace(" + target.name() + ")";
  }

  @Override
  public Distribution requiredDistribution() {
    return SparkWrite.distribution(target, PostponedBucket.writesFixedBuckets(target, true));
  }

  @Override
  public SortOrder[] requiredOrdering() {
    return SparkWrite.ordering(target, PostponedBucket.writesFixedBuckets(target, true));
  }

  @Override
  public BatchWrite toBatch() {
    return this;
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    // no base snapshot: the new files start the table afresh (sequence numbers, bucket count)
    return new SparkDataWriterFactory(
        target, null, true, null, PostponedBucket.writesFixedBuckets(target, true));
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    try {
      replace.accept(collect(messages));
    } catch (CommitStateUnknownException e) {
      commitStateUnknown = true;
      throw e;
    }
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    if (commitStateUnknown) {
      // the snapshot may reference these files: deleting them could corrupt the table
      return;
    }
    target.newCommit(commitUser).abort(collect(messages));
  }

  private static List<CommitMessage> collect(WriterCommitMessage[] messages) {
    List<CommitMessage> all = new ArrayList<>();
    for (WriterCommitMessage message : messages) {
      if (message != null) {
        all.addAll(((SparkCommitMessage) message).messages());
      }
    }
    return all;
  }
}
