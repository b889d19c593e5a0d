package io.basalt.bucket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.data.BinaryRow;
import io.basalt.index.IndexFileMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

class DynamicBucketAssignerTest {
  private static final BinaryRow PART = BinaryRow.EMPTY;

  /** An index held in memory: bucket -> hashes. */
  private static final class MemoryIndex implements DynamicBucketAssigner.IndexSource {
    final Map<Integer, List<Integer>> buckets = new HashMap<>();
    final Map<String, List<Integer>> byFile = new HashMap<>();
    int reads;

    void put(int bucket, int... hashes) {
      List<Integer> list = new ArrayList<>();
      for (int h : hashes) {
        list.add(h);
      }
      buckets.put(bucket, list);
      byFile.put("index-" + bucket, list);
    }

    @Override
    public Map<Integer, IndexFileMeta> hashFiles(BinaryRow partition) {
      Map<Integer, IndexFileMeta> files = new HashMap<>();
      buckets.forEach(
          (b, hashes) ->
              files.put(
                  b,
                  new IndexFileMeta(
                      IndexFileMeta.HASH,
                      "index-" + b,
                      4L * hashes.size(),
                      hashes.size(),
                      null,
                      null)));
      return files;
    }

    @Override
    public void forEachHash(IndexFileMeta file, IntConsumer consumer) {
      reads++;
      byFile.get(file.fileName()).forEach(consumer::accept);
    }
  }

  @Test
  void fillsOwnedBucketsUpToTheTargetThenOpensTheNextOwnedOne() {
    // 2 assigners: even hashes go to assigner 0 (buckets 0, 2, 4...), odd ones to 1 (1, 3, ...)
    DynamicBucketAssigner assigner = new DynamicBucketAssigner(2, 2, -1, new MemoryIndex(), "t");
    assertThat(assigner.assign(PART, 10)).isEqualTo(0);
    assertThat(assigner.assign(PART, 12)).isEqualTo(0);
    assertThat(assigner.assign(PART, 14)).isEqualTo(2);
    assertThat(assigner.assign(PART, 11)).isEqualTo(1);
    assertThat(assigner.assign(PART, -13)).isEqualTo(1);
    assertThat(assigner.assign(PART, 15)).isEqualTo(3);
    // a key seen before keeps its bucket
    assertThat(assigner.assign(PART, 12)).isEqualTo(0);
    assertThat(assigner.assign(PART, 15)).isEqualTo(3);

    Map<Integer, Integer> added = new HashMap<>();
    for (DynamicBucketAssigner.NewHashes n : assigner.newHashes()) {
      assertThat(n.previous()).isNull();
      added.put(n.bucket(), n.hashes().size());
    }
    assertThat(added).containsExactlyInAnyOrderEntriesOf(Map.of(0, 2, 2, 1, 1, 2, 3, 1));
  }

  @Test
  void keysInTheIndexKeepTheirBucketEvenWhenAnotherAssignerOwnsIt() {
    MemoryIndex index = new MemoryIndex();
    // written before with 1 assigner: buckets 0 and 1, bucket 0 full at target 2
    index.put(0, 4, 7);
    index.put(1, 6);
    DynamicBucketAssigner assigner = new DynamicBucketAssigner(2, 2, -1, index, "t");

    assertThat(assigner.assign(PART, 7)).isEqualTo(0);
    assertThat(assigner.ownsBucketOf(7, 0)).isFalse();
    assertThat(assigner.assign(PART, 6)).isEqualTo(1);
    assertThat(assigner.ownsBucketOf(6, 1)).isFalse();
    // assigner 0 owns bucket 0 (full): a new even key opens bucket 2
    assertThat(assigner.assign(PART, 8)).isEqualTo(2);
    // assigner 1 owns bucket 1 (one key of two): a new odd key joins it
    assertThat(assigner.assign(PART, 9)).isEqualTo(1);
    assertThat(assigner.ownsBucketOf(9, 1)).isTrue();
    // each assigner read the two files once
    assertThat(index.reads).isEqualTo(4);

    for (DynamicBucketAssigner.NewHashes n : assigner.newHashes()) {
      if (n.bucket() == 1) {
        assertThat(n.previous().fileName()).isEqualTo("index-1");
      }
    }
  }

  @Test
  void aSecondRoundExtendsTheFileTheFirstRoundWrote() {
    DynamicBucketAssigner assigner = new DynamicBucketAssigner(1, 10, -1, new MemoryIndex(), "t");
    assigner.assign(PART, 1);
    assigner.assign(PART, 2);
    List<DynamicBucketAssigner.NewHashes> first = assigner.newHashes();
    assertThat(first).hasSize(1);
    IndexFileMeta written =
        new IndexFileMeta(IndexFileMeta.HASH, "index-round-1", 8, 2, null, null);
    assigner.written(first.get(0), written);
    assertThat(assigner.newHashes()).isEmpty();

    assigner.assign(PART, 3);
    assertThat(assigner.assign(PART, 1)).isEqualTo(0);
    List<DynamicBucketAssigner.NewHashes> second = assigner.newHashes();
    assertThat(second).hasSize(1);
    assertThat(second.get(0).previous()).isEqualTo(written);
    assertThat(second.get(0).hashes().size()).isEqualTo(1);
  }

  @Test
  void spreadsOverOwnedBucketsOnceMaxBucketsIsReached() {
    DynamicBucketAssigner assigner = new DynamicBucketAssigner(1, 1, 2, new MemoryIndex(), "t");
    assertThat(assigner.assign(PART, 100)).isEqualTo(0);
    assertThat(assigner.assign(PART, 101)).isEqualTo(1);
    for (int hash = 102; hash < 110; hash++) {
      assertThat(assigner.assign(PART, hash)).isEqualTo(Math.abs(hash % 2));
    }
  }

  @Test
  void failsWhenAPartitionNeedsMoreBucketsThanPaimonCanNumber() {
    DynamicBucketAssigner assigner =
        new DynamicBucketAssigner(Short.MAX_VALUE, 1, -1, new MemoryIndex(), "db.t");
    assigner.assign(PART, 0);
    assertThatThrownBy(() -> assigner.assign(PART, Short.MAX_VALUE))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Table db.t needs more than 32767 dynamic buckets")
        .hasMessageContaining("raise 'dynamic-bucket.target-row-num'");
  }
}
