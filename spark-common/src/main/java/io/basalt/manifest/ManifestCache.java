package io.basalt.manifest;

import io.basalt.data.BinaryRow;
import io.basalt.utils.Check;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;

/**
 * Decoded manifests kept in memory for planning, keyed by the manifest's path. A manifest is never
 * rewritten and its name is unique, so a cached copy never goes stale: planning a newer snapshot
 * decodes only the manifests it added. Expired or rolled-back manifests are simply no longer asked
 * for and age out.
 *
 * <p>Bounded by the <em>estimated</em> heap bytes of the entries it holds ({@link #estimate}); the
 * least recently used manifests are evicted first, and a manifest larger than the whole bound is
 * not kept. Thread-safe; the cached lists are immutable and shared by every reader.
 *
 * <p>Decoded manifest lists are kept beside the manifests, by path, for the same reason: a plan
 * reads two of them (base and delta) before any manifest, and they never change either. They are
 * bounded apart, by the number of manifests they name ({@value #MAX_LISTED_MANIFESTS}).
 */
public final class ManifestCache {
  /** 128 MB, Paimon's manifest cache default, or a tenth of the heap when that is smaller. */
  public static final long DEFAULT_MAX_BYTES =
      Math.min(128L << 20, Runtime.getRuntime().maxMemory() / 10);

  private static final ManifestCache SHARED = new ManifestCache(DEFAULT_MAX_BYTES);

  /** Access-ordered, so iteration starts at the least recently used manifest. */
  private final LinkedHashMap<String, Cached> manifests = new LinkedHashMap<>(16, 0.75f, true);

  /** The most manifests the cached manifest lists may name together (a few MB of metadata). */
  public static final int MAX_LISTED_MANIFESTS = 100_000;

  /** Access-ordered decoded manifest lists, by path. */
  private final LinkedHashMap<String, List<ManifestFileMeta>> lists =
      new LinkedHashMap<>(16, 0.75f, true);

  private long listedManifests;
  private long listHits;
  private long listMisses;
  private long maxBytes;
  private long bytes;
  private long hits;
  private long misses;

  public ManifestCache(long maxBytes) {
    Check.argument(maxBytes >= 0, "The manifest cache bound must be >= 0 bytes, not %s", maxBytes);
    this.maxBytes = maxBytes;
  }

  /** The cache of this JVM, shared by every table and catalog in it (manifest paths are unique). */
  public static ManifestCache shared() {
    return SHARED;
  }

  /**
   * The entries of the manifest at {@code path}, or null when they are not cached.
   *
   * @return an immutable list, shared with other callers
   */
  @Nullable
  public synchronized List<ManifestEntry> get(String path) {
    Cached cached = manifests.get(path);
    if (cached == null) {
      misses++;
      return null;
    }
    hits++;
    return cached.entries();
  }

  /**
   * Keeps the entries of the manifest at {@code path}, evicting the least recently used manifests
   * until the bound holds again.
   *
   * @param weight the entries' estimated bytes, the sum of {@link #estimate} over them
   * @return false when the manifest alone is larger than the bound, so it was not kept
   */
  public synchronized boolean put(String path, List<ManifestEntry> entries, long weight) {
    if (weight > maxBytes) {
      return false;
    }
    Cached previous = manifests.put(path, new Cached(List.copyOf(entries), weight));
    if (previous != null) {
      bytes -= previous.weight();
    }
    bytes += weight;
    evict();
    return true;
  }

  /**
   * The manifests named by the manifest list at {@code path}, or null when it is not cached.
   *
   * @return an immutable list, shared with other callers
   */
  @Nullable
  public synchronized List<ManifestFileMeta> manifestList(String path) {
    List<ManifestFileMeta> cached = lists.get(path);
    if (cached == null) {
      listMisses++;
    } else {
      listHits++;
    }
    return cached;
  }

  /** Keeps the decoded manifest list at {@code path}, evicting the least recently used lists. */
  public synchronized void putManifestList(String path, List<ManifestFileMeta> metas) {
    if (metas.size() > MAX_LISTED_MANIFESTS) {
      return;
    }
    List<ManifestFileMeta> previous = lists.put(path, List.copyOf(metas));
    listedManifests += metas.size() - (previous == null ? 0 : previous.size());
    Iterator<Map.Entry<String, List<ManifestFileMeta>>> eldest = lists.entrySet().iterator();
    while (listedManifests > MAX_LISTED_MANIFESTS && eldest.hasNext()) {
      listedManifests -= eldest.next().getValue().size();
      eldest.remove();
    }
  }

  /** Manifest-list lookups answered from the cache. */
  public synchronized long manifestListHits() {
    return listHits;
  }

  /** Manifest-list lookups that found nothing, so the list was read from storage. */
  public synchronized long manifestListMisses() {
    return listMisses;
  }

  /** Changes the bound (the shared cache takes the bound of the options that use it). */
  public synchronized void resize(long newMaxBytes) {
    Check.argument(
        newMaxBytes >= 0, "The manifest cache bound must be >= 0 bytes, not %s", newMaxBytes);
    this.maxBytes = newMaxBytes;
    evict();
  }

  /** Drops every cached manifest. */
  public synchronized void clear() {
    manifests.clear();
    bytes = 0;
    lists.clear();
    listedManifests = 0;
  }

  public synchronized long maxBytes() {
    return maxBytes;
  }

  /** The estimated bytes of the cached entries; never above {@link #maxBytes()}. */
  public synchronized long bytes() {
    return bytes;
  }

  /** The number of cached manifests. */
  public synchronized int size() {
    return manifests.size();
  }

  /** Lookups answered from the cache. */
  public synchronized long hits() {
    return hits;
  }

  /** Lookups that found nothing. */
  public synchronized long misses() {
    return misses;
  }

  private void evict() {
    Iterator<Map.Entry<String, Cached>> eldest = manifests.entrySet().iterator();
    while (bytes > maxBytes && eldest.hasNext()) {
      bytes -= eldest.next().getValue().weight();
      eldest.remove();
    }
  }

  /**
   * The estimated heap bytes of one decoded entry: object headers and fields plus the arrays and
   * strings it points to. An estimate, not a measurement: it errs high for small entries.
   */
  public static long estimate(ManifestEntry entry) {
    DataFileMeta file = entry.file();
    // ManifestEntry + DataFileMeta objects with their boxed nullable fields
    long size = 32 + 160;
    size += string(file.fileName()) + string(file.externalPath());
    size += row(entry.partition()) + row(file.minKey()) + row(file.maxKey());
    size += stats(file.keyStats()) + stats(file.valueStats());
    size += strings(file.extraFiles()) + strings(file.valueStatsCols()) + strings(file.writeCols());
    size += file.embeddedIndex() == null ? 0 : 16 + file.embeddedIndex().length;
    return size;
  }

  private static long stats(SimpleStats stats) {
    long nulls = stats.nullCounts() == null ? 0 : 16 + 24L * stats.nullCounts().size();
    return 24 + row(stats.minValues()) + row(stats.maxValues()) + nulls;
  }

  private static long row(BinaryRow row) {
    return 24 + 16 + row.bytes().length;
  }

  private static long string(@Nullable String s) {
    return s == null ? 0 : 40 + s.length();
  }

  private static long strings(@Nullable List<String> list) {
    if (list == null) {
      return 0;
    }
    long size = 16 + 8L * list.size();
    for (String s : list) {
      size += string(s);
    }
    return size;
  }

  private record Cached(List<ManifestEntry> entries, long weight) {}
}
