package io.basalt.merge;

import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Merges the versions of one primary key into the row a merge engine keeps. The caller calls {@link
 * #reset()}, then {@link #add} with every version of the key from oldest to newest, then {@link
 * #result()}. Rows are key-value rows ({@link io.basalt.mergetree.KeyValueLayout}), possibly with
 * only some value columns.
 *
 * <p>Reuse contract: a row passed to {@code add} stays valid until the following {@code add}
 * returns, and the last row added stays valid until the result has been consumed. A function that
 * keeps anything else from an input copies it. The result is a reused view, valid until the next
 * {@link #reset()}.
 */
public interface MergeFunction {
  /** Forgets the previous key. */
  void reset();

  /** Adds the next (newer) version of the current key. */
  void add(InternalRow keyValue);

  /**
   * The merged version: a key-value row whose kind is an add (+I/+U) when the key has a row, or a
   * retraction (-U/-D) when the key's row is removed or the versions only retract older data below
   * (a lone retraction is returned as it is); callers with nothing below drop retractions. Null
   * when the versions leave nothing to write (every version was an ignored delete).
   */
  @Nullable
  InternalRow result();
}
