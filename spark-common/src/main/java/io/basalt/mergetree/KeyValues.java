package io.basalt.mergetree;

import io.basalt.BasaltException;
import io.basalt.merge.MergeFunction;
import io.basalt.utils.CloseableIterator;
import io.basalt.utils.Closeables;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Turns table rows into key-value rows and buffers them for one bucket: the entry point of the
 * merge tree's write side. Rejects null keys, naming the column.
 */
public final class KeyValues {
  private final KeyValueLayout layout;
  private final KeyValueRow view;
  private final WriteBuffer buffer;
  private final Comparator<InternalRow> versionOrder;
  private final MergeFunction bufferMerge;
  private final MergeFunction spillMerge;
  private final UnsafeProjection toUnsafe;
  private final List<SpillFile> spills = new ArrayList<>();
  private long spilledBytes;
  private final int[] keyIndices;
  private final String[] keyNames;
  private final String tableName;

  public KeyValues(KeyValueLayout layout, String tableName) {
    this(layout, tableName, SequenceOrder.bySequenceNumber(layout));
  }

  /** A deduplicating buffer. */
  public KeyValues(KeyValueLayout layout, String tableName, Comparator<InternalRow> versionOrder) {
    this(layout, tableName, versionOrder, () -> MergeIterator.newestWins(layout));
  }

  /**
   * @param versionOrder orders versions of one key from oldest to newest (full file rows)
   * @param mergeFunctions new merge functions over full file rows (the buffer needs two)
   */
  public KeyValues(
      KeyValueLayout layout,
      String tableName,
      Comparator<InternalRow> versionOrder,
      Supplier<MergeFunction> mergeFunctions) {
    this(layout, tableName, versionOrder, mergeFunctions, WriteBufferPool.bounded(Long.MAX_VALUE));
  }

  /**
   * @param versionOrder orders versions of one key from oldest to newest (full file rows)
   * @param mergeFunctions new merge functions over full file rows (the buffer needs two)
   * @param pool where the buffer's memory comes from; see {@link #tryAdd}
   */
  public KeyValues(
      KeyValueLayout layout,
      String tableName,
      Comparator<InternalRow> versionOrder,
      Supplier<MergeFunction> mergeFunctions,
      WriteBufferPool pool) {
    this(
        layout,
        tableName,
        versionOrder,
        mergeFunctions,
        pool,
        UnsafeProjection.create(layout.fileSchema()));
  }

  /**
   * As above, encoding rows with {@code toUnsafe}, a projection of the layout's file schema that
   * the buffers of one write share: generating one costs about a millisecond, and a write opens a
   * buffer per bucket. Every use encodes one row and copies it before the next, all on the write's
   * thread, so sharing is safe there and nowhere else.
   */
  public KeyValues(
      KeyValueLayout layout,
      String tableName,
      Comparator<InternalRow> versionOrder,
      Supplier<MergeFunction> mergeFunctions,
      WriteBufferPool pool,
      UnsafeProjection toUnsafe) {
    this.layout = layout;
    this.bufferMerge = mergeFunctions.get();
    this.spillMerge = mergeFunctions.get();
    this.tableName = tableName;
    StructType fileSchema = layout.fileSchema();
    DataType[] types = new DataType[fileSchema.size()];
    StructField[] fields = fileSchema.fields();
    for (int i = 0; i < types.length; i++) {
      types[i] = fields[i].dataType();
    }
    this.view = new KeyValueRow(layout, types);
    this.buffer = new WriteBuffer(layout, fileSchema, versionOrder, pool, toUnsafe);
    this.toUnsafe = toUnsafe;
    this.versionOrder = versionOrder;
    this.keyIndices = layout.keyIndicesInValue();
    this.keyNames = new String[keyIndices.length];
    for (int i = 0; i < keyIndices.length; i++) {
      keyNames[i] = fields[i].name().substring(KeyValueLayout.KEY_PREFIX.length());
    }
  }

  /**
   * Buffers {@code row} (a table row) with its sequence number and kind, whatever the pool says.
   */
  public void add(InternalRow row, long sequenceNumber, byte kind) {
    tryAdd(row, sequenceNumber, kind, true);
  }

  /**
   * Buffers {@code row} (a table row) with its sequence number and kind if the pool grants the
   * memory it takes ({@code force}: even beyond the budget); false, buffering nothing, otherwise.
   */
  public boolean tryAdd(InternalRow row, long sequenceNumber, byte kind, boolean force) {
    for (int i = 0; i < keyIndices.length; i++) {
      if (row.isNullAt(keyIndices[i])) {
        throw new BasaltException(
            String.format(
                "Primary-key column '%s' of table %s is NULL; primary-key values must not be null."
                    + " Filter out or fill the NULL keys before writing.",
                keyNames[i], tableName));
      }
    }
    return buffer.tryAdd(view.replace(row, sequenceNumber, kind), force);
  }

  public long memoryUsed() {
    return buffer.memoryUsed();
  }

  public boolean isEmpty() {
    return buffer.isEmpty() && spills.isEmpty();
  }

  /**
   * Frees the buffer's memory by writing its rows, sorted and merged per key, to a local spill file
   * in {@code dir}; {@link #sortedMerged} merges the spills back.
   */
  public void spill(java.nio.file.Path dir) {
    if (buffer.isEmpty()) {
      buffer.clear(); // an empty buffer may still hold its first page
      return;
    }
    SpillFile spill =
        SpillFile.write(
            dir, layout.fileSchema().size(), buffer.sortedMerged(bufferMerge), toUnsafe);
    spills.add(spill);
    spilledBytes += spill.bytes();
    buffer.clear();
  }

  /** How many spill files exist now. */
  public int spillCount() {
    return spills.size();
  }

  /** Bytes spilled to local disk since this buffer was created. */
  public long spilledBytes() {
    return spilledBytes;
  }

  /**
   * The rows buffered in memory (not those spilled), sorted by key and version, each version of a
   * key on its own: call it before {@link #spill} and {@link #sortedMerged}, which merge them.
   */
  public Iterator<? extends InternalRow> sortedUnmerged() {
    return buffer.sorted();
  }

  /**
   * Every buffered and spilled row sorted by key, the versions of each key merged (retractions
   * included); rows are reused, each valid until the next is read.
   */
  public CloseableIterator<InternalRow> sortedMerged() {
    Iterator<InternalRow> memory = buffer.sortedMerged(bufferMerge);
    CloseableIterator<InternalRow> memoryRun =
        new CloseableIterator<>() {
          @Override
          public boolean hasNext() {
            return memory.hasNext();
          }

          @Override
          public InternalRow next() {
            return memory.next();
          }

          @Override
          public void close() {}
        };
    if (spills.isEmpty()) {
      return memoryRun;
    }
    List<CloseableIterator<InternalRow>> runs = new ArrayList<>();
    try {
      for (SpillFile spill : spills) {
        runs.add(spill.read());
      }
    } catch (RuntimeException | Error e) {
      Closeables.closeAllAfter(e, runs); // the spills opened before the one that failed
      throw e;
    }
    runs.add(memoryRun);
    return new MergeIterator(runs, layout, versionOrder, spillMerge, true);
  }

  /** Empties the buffer and deletes the spill files. */
  public void clear() {
    buffer.clear();
    for (SpillFile spill : spills) {
      spill.delete();
    }
    spills.clear();
  }

  public KeyValueLayout layout() {
    return layout;
  }
}
