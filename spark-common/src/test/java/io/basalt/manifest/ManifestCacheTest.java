package io.basalt.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

class ManifestCacheTest {

  /** A manifest of {@code n} entries whose file names start with {@code path}. */
  private static List<ManifestEntry> manifest(String path, int n) {
    List<ManifestEntry> entries = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      entries.add(
          new ManifestEntry(
              FileKind.ADD,
              ManifestEntryCodecTest.partition("2026-12-01"),
              i % 4,
              4,
              ManifestEntryCodecTest.fileWithNulls(path + "-" + i + ".parquet")));
    }
    return entries;
  }

  private static long weight(List<ManifestEntry> entries) {
    return entries.stream().mapToLong(ManifestCache::estimate).sum();
  }

  @Test
  void evictsTheLeastRecentlyUsedManifestsBeyondTheBound() {
    List<ManifestEntry> m = manifest("a", 10);
    long w = weight(m);
    ManifestCache cache = new ManifestCache(3 * w);
    assertThat(cache.put("a", m, w)).isTrue();
    assertThat(cache.put("b", manifest("b", 10), w)).isTrue();
    assertThat(cache.put("c", manifest("c", 10), w)).isTrue();
    assertThat(cache.get("a")).isEqualTo(m); // a is now the most recently used
    assertThat(cache.put("d", manifest("d", 10), w)).isTrue();

    assertThat(cache.get("b")).isNull();
    assertThat(cache.get("a")).isEqualTo(m);
    assertThat(cache.get("c")).isNotNull();
    assertThat(cache.get("d")).isNotNull();
    assertThat(cache.size()).isEqualTo(3);
    assertThat(cache.bytes()).isEqualTo(3 * w).isLessThanOrEqualTo(cache.maxBytes());
    assertThat(cache.hits()).isEqualTo(4);
    assertThat(cache.misses()).isEqualTo(1);
  }

  @Test
  void aManifestLargerThanTheBoundIsNotKept() {
    List<ManifestEntry> big = manifest("big", 100);
    ManifestCache cache = new ManifestCache(weight(big) - 1);
    cache.put("small", manifest("small", 1), weight(manifest("small", 1)));
    assertThat(cache.put("big", big, weight(big))).isFalse();
    assertThat(cache.get("big")).isNull();
    assertThat(cache.get("small")).isNotNull(); // nothing was evicted for it
  }

  @Test
  void shrinkingEvictsAndZeroDisablesKeeping() {
    ManifestCache cache = new ManifestCache(1 << 20);
    for (int i = 0; i < 5; i++) {
      List<ManifestEntry> m = manifest("m" + i, 5);
      cache.put("m" + i, m, weight(m));
    }
    long one = weight(manifest("m0", 5));
    cache.resize(2 * one);
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.get("m4")).isNotNull();
    assertThat(cache.get("m0")).isNull();
    cache.resize(0);
    assertThat(cache.size()).isZero();
    assertThat(cache.bytes()).isZero();
    assertThat(cache.put("m9", manifest("m9", 1), weight(manifest("m9", 1)))).isFalse();
  }

  @Test
  void cachedListsCannotBeChangedByTheirReaders() {
    ManifestCache cache = new ManifestCache(1 << 20);
    List<ManifestEntry> m = new ArrayList<>(manifest("a", 3));
    cache.put("a", m, weight(m));
    m.clear(); // the caller's list is copied
    assertThat(cache.get("a")).hasSize(3);
    assertThatThrownBy(() -> cache.get("a").clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void theEstimateGrowsWithWhatTheEntryHolds() {
    ManifestEntry small = manifest("a", 1).get(0);
    ManifestEntry longName = manifest("a".repeat(1000), 1).get(0);
    ManifestEntry everything =
        new ManifestEntry(
            FileKind.ADD,
            small.partition(),
            0,
            4,
            ManifestEntryCodecTest.fileWithEverything("x.parquet"));
    assertThat(ManifestCache.estimate(small)).isGreaterThan(200);
    assertThat(ManifestCache.estimate(longName) - ManifestCache.estimate(small))
        .isGreaterThanOrEqualTo(999);
    assertThat(ManifestCache.estimate(everything)).isGreaterThan(ManifestCache.estimate(small));
  }

  @Test
  void aNegativeBoundIsRefusedWithTheValue() {
    assertThatThrownBy(() -> new ManifestCache(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The manifest cache bound must be >= 0 bytes, not -1");
    assertThatThrownBy(() -> new ManifestCache(1).resize(-5))
        .hasMessage("The manifest cache bound must be >= 0 bytes, not -5");
  }

  @Test
  void concurrentReadersAndWritersKeepTheBoundAndTheirOwnEntries() throws Exception {
    List<List<ManifestEntry>> manifests = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      manifests.add(manifest("m" + i, 1 + i % 7));
    }
    long bound = weight(manifests.get(6)) * 10;
    ManifestCache cache = new ManifestCache(bound);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        futures.add(
            pool.submit(
                () -> {
                  ThreadLocalRandom random = ThreadLocalRandom.current();
                  for (int op = 0; op < 2000; op++) {
                    int i = random.nextInt(manifests.size());
                    List<ManifestEntry> cached = cache.get("m" + i);
                    if (cached == null) {
                      cache.put("m" + i, manifests.get(i), weight(manifests.get(i)));
                    } else {
                      // a hit is always the manifest cached under that key
                      assertThat(cached).isEqualTo(manifests.get(i));
                    }
                    assertThat(cache.bytes()).isLessThanOrEqualTo(bound);
                  }
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(cache.hits() + cache.misses()).isEqualTo(8 * 2000);
    assertThat(cache.hits()).isPositive();
    long expected = 0;
    for (int i = 0; i < manifests.size(); i++) {
      if (cache.get("m" + i) != null) {
        expected += weight(manifests.get(i));
      }
    }
    assertThat(cache.bytes()).isEqualTo(expected);
  }

  private static List<ManifestFileMeta> metas(int count) {
    List<ManifestFileMeta> metas = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      metas.add(
          new ManifestFileMeta(
              "manifest-" + i, 100, 1, 0, SimpleStats.EMPTY, 0, null, null, null, null));
    }
    return metas;
  }

  @Test
  void manifestListsAreBoundedByTheManifestsTheyName() {
    ManifestCache cache = new ManifestCache(1 << 20);
    int half = ManifestCache.MAX_LISTED_MANIFESTS / 2;
    cache.putManifestList("a", metas(half));
    cache.putManifestList("b", metas(half));
    assertThat(cache.manifestList("a")).hasSize(half);
    // a third list evicts the least recently used one (b: a was just read)
    cache.putManifestList("c", metas(1));
    assertThat(cache.manifestList("b")).isNull();
    assertThat(cache.manifestList("a")).hasSize(half);
    assertThat(cache.manifestList("c")).hasSize(1);
    // a list naming more manifests than the bound is not kept, and evicts nothing
    cache.putManifestList("huge", metas(ManifestCache.MAX_LISTED_MANIFESTS + 1));
    assertThat(cache.manifestList("huge")).isNull();
    assertThat(cache.manifestList("a")).hasSize(half);
    assertThat(cache.manifestListHits()).isEqualTo(4);
    assertThat(cache.manifestListMisses()).isEqualTo(2);
    cache.clear();
    assertThat(cache.manifestList("a")).isNull();
  }
}
