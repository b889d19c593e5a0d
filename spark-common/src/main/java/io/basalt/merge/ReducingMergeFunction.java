package io.basalt.merge;

import io.basalt.data.RowKind;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Runs a merge function the way a reducer does (as Paimon's reducer wrapper): a key whose only
 * version is a retraction (-U/-D) comes out as that row, unchanged, and the function runs only once
 * a second version arrives. A lone retraction so stays a retraction wherever older data may lie
 * below (write buffer, spills, minor compaction) and is retracted from that data when it is met;
 * where nothing lies below (reads, compaction into the bottom level) the caller drops it. A lone
 * add still goes through the function, which may normalize it (e.g. {@code collect} with {@code
 * distinct}).
 */
final class ReducingMergeFunction implements MergeFunction {
  private final MergeFunction delegate;
  private final int kindIndex;
  @Nullable private InternalRow heldRetraction;
  private boolean merging;

  ReducingMergeFunction(MergeFunction delegate, int kindIndex) {
    this.delegate = delegate;
    this.kindIndex = kindIndex;
  }

  @Override
  public void reset() {
    delegate.reset();
    heldRetraction = null;
    merging = false;
  }

  @Override
  public void add(InternalRow keyValue) {
    if (!merging && heldRetraction == null && !RowKind.isAdd(keyValue.getByte(kindIndex))) {
      // the reuse contract keeps this row valid until the next add returns: no copy needed
      heldRetraction = keyValue;
      return;
    }
    if (heldRetraction != null) {
      delegate.add(heldRetraction);
      heldRetraction = null;
    }
    merging = true;
    delegate.add(keyValue);
  }

  @Nullable
  @Override
  public InternalRow result() {
    return merging ? delegate.result() : heldRetraction;
  }
}
