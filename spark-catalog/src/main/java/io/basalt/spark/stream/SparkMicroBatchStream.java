package io.basalt.spark.stream;

import io.basalt.BasaltException;
import io.basalt.consumer.ConsumerManager;
import io.basalt.operation.incremental.IncrementalRead;
import io.basalt.operation.incremental.IncrementalSplit;
import io.basalt.operation.stream.StreamPosition;
import io.basalt.operation.stream.StreamSnapshots;
import io.basalt.operation.stream.StreamSplits;
import io.basalt.operation.stream.StreamStart;
import io.basalt.options.StreamOptions;
import io.basalt.schema.TableSchema;
import io.basalt.snapshot.Snapshot;
import io.basalt.snapshot.SnapshotManager;
import io.basalt.spark.read.IncrementalInputPartition;
import io.basalt.spark.read.IncrementalReaderFactory;
import io.basalt.table.FileStoreTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.ReadAllAvailable;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.SupportsAdmissionControl;
import org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow;
import org.apache.spark.sql.types.StructType;

/**
 * A streaming read of a table: its snapshots in order, each as splits ({@link StreamSplits}), with
 * offsets at split granularity so admission control can end a batch inside a snapshot. The first
 * unit of work is the start snapshot's rows ({@code latest-full}, {@code from-snapshot-full}) or
 * changes; then every later snapshot's changes. Columns are fixed when the query starts: a snapshot
 * written with other columns stops the query before any of its rows are read.
 */
public final class SparkMicroBatchStream
    implements MicroBatchStream, SupportsAdmissionControl, SupportsTriggerAvailableNow {
  private static final int PLANNED_SNAPSHOTS_KEPT = 8;

  private final FileStoreTable table;
  private final StructType dataSchema;
  private final boolean rowKinds;
  private final AdmissionLimits limits;
  private final StreamSplits planner;
  @Nullable private final String consumerId;
  private final Map<StreamPosition, List<IncrementalSplit>> planned =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<StreamPosition, List<IncrementalSplit>> e) {
          return size() > PLANNED_SNAPSHOTS_KEPT;
        }
      };
  private StreamPosition start;
  @Nullable private Long availableNowEnd;
  private long lastBatchMillis = System.currentTimeMillis();

  /**
   * @param dataSchema the table columns the stream produces
   * @param rowKinds whether rows carry their kind in a leading column (and retractions stay)
   * @throws BasaltException for bad streaming options, before anything is read
   */
  public SparkMicroBatchStream(FileStoreTable table, StructType dataSchema, boolean rowKinds) {
    StreamStart.checkStreamable(table);
    this.table = table;
    this.dataSchema = dataSchema;
    this.rowKinds = rowKinds;
    this.limits = new AdmissionLimits(table.options());
    this.planner = new StreamSplits(table);
    this.consumerId = table.options().getOptional(StreamOptions.CONSUMER_ID).orElse(null);
    if (consumerId != null) {
      ConsumerManager.checkId(consumerId, table.name());
    }
  }

  @Override
  public Offset initialOffset() {
    if (start == null) {
      start = StreamStart.resolve(table);
      recordConsumer(start);
    }
    return new StreamOffset(start);
  }

  @Override
  public Offset deserializeOffset(String json) {
    return StreamOffset.parse(json);
  }

  @Override
  public ReadLimit getDefaultReadLimit() {
    return limits.readLimit();
  }

  @Override
  public void prepareForTriggerAvailableNow() {
    availableNowEnd = table.snapshotManager().latestSnapshotId().orElse(0);
  }

  @Override
  public Offset latestOffset() {
    throw new UnsupportedOperationException("latestOffset(Offset, ReadLimit) is used instead");
  }

  @Override
  public Offset latestOffset(Offset startOffset, ReadLimit limit) {
    StreamPosition from = ((StreamOffset) startOffset).position();
    long last =
        availableNowEnd != null
            ? availableNowEnd
            : table.snapshotManager().latestSnapshotId().orElse(0);
    AdmissionLimits.Budget budget = limits.budget(limit instanceof ReadAllAvailable);
    StreamPosition position = from;
    walk:
    while (position.snapshotId() <= last) {
      List<IncrementalSplit> work = work(position);
      while (position.position() < work.size()) {
        if (!budget.admit(work.get(position.position()))) {
          break walk;
        }
        position = position.advance(1);
      }
      position = position.nextSnapshot();
    }
    if (availableNowEnd == null
        && !position.equals(from)
        && limits.waitForMore(budget.rows(), System.currentTimeMillis() - lastBatchMillis)) {
      return startOffset;
    }
    return new StreamOffset(position);
  }

  /** The splits of the snapshot {@code position} is in, planned once while they are in use. */
  private List<IncrementalSplit> work(StreamPosition position) {
    StreamPosition unit = new StreamPosition(position.snapshotId(), 0, position.full());
    List<IncrementalSplit> work = planned.get(unit);
    if (work == null) {
      Snapshot snapshot =
          unit.full()
              ? snapshot(position.snapshotId())
              : StreamSnapshots.forChanges(table, position.snapshotId());
      checkColumns(snapshot);
      work = unit.full() ? planner.rows(snapshot) : planner.changes(snapshot);
      planned.put(unit, work);
    }
    return work;
  }

  /** Snapshot {@code id}; an expired one fails the query, naming the earliest left. */
  private Snapshot snapshot(long id) {
    SnapshotManager snapshots = table.snapshotManager();
    return snapshots.exists(id) ? snapshots.snapshot(id) : table.timeTravel().snapshot(id);
  }

  /** Stops the query at a snapshot written with columns it was not started with. */
  private void checkColumns(Snapshot snapshot) {
    TableSchema current = table.schema();
    if (snapshot.schemaId() <= current.id()) {
      return; // older files are read in the query's columns
    }
    TableSchema newer = table.schemaManager().schema(snapshot.schemaId());
    if (!newer.fields().equals(current.fields())) {
      throw new BasaltException(
          String.format(
              "The columns of table %s changed at snapshot %s (schema %s -> %s) while a streaming"
                  + " query reads it; nothing of snapshot %s was read. Fix: restart the query on"
                  + " the same checkpoint: it resumes at snapshot %s with the new columns.",
              table.name(), snapshot.id(), current.id(), newer.id(), snapshot.id(), snapshot.id()));
    }
  }

  @Override
  public InputPartition[] planInputPartitions(Offset startOffset, Offset endOffset) {
    StreamPosition position = ((StreamOffset) startOffset).position();
    StreamPosition end = ((StreamOffset) endOffset).position();
    List<InputPartition> partitions = new ArrayList<>();
    while (position.before(end)) {
      List<IncrementalSplit> work = work(position);
      boolean endsHere = end.snapshotId() == position.snapshotId() && end.full() == position.full();
      int stop = endsHere ? Math.min(end.position(), work.size()) : work.size();
      for (int i = position.position(); i < stop; i++) {
        partitions.add(new IncrementalInputPartition(work.get(i)));
      }
      if (endsHere) {
        break;
      }
      position = position.nextSnapshot();
    }
    return partitions.toArray(new InputPartition[0]);
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new IncrementalReaderFactory(new IncrementalRead(table, dataSchema), rowKinds, null);
  }

  @Override
  public void commit(Offset end) {
    lastBatchMillis = System.currentTimeMillis();
    recordConsumer(((StreamOffset) end).position());
  }

  /**
   * Records that the consumer still needs the snapshot {@code position} is in, and later ones. A
   * position inside a full read is not recorded: the consumer file holds only a snapshot id, which
   * a new query would resume as that snapshot's changes, losing the rest of the full read; the
   * consumer keeps its previous record (or none, so a new query starts the full read again).
   */
  private void recordConsumer(StreamPosition position) {
    if (consumerId != null && !position.full()) {
      new ConsumerManager(table.fileIO(), table.paths()).record(consumerId, position.snapshotId());
    }
  }

  @Override
  public void stop() {}

  @Override
  public String toString() {
    return "BasaltMicroBatchStream(" + table.name() + ")";
  }
}
