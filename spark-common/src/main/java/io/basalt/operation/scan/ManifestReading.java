package io.basalt.operation.scan;

import io.basalt.manifest.ManifestCache;
import io.basalt.options.Options;
import io.basalt.options.PlanningOptions;
import javax.annotation.Nullable;

/** How planning reads manifests, from the table's options. */
final class ManifestReading {
  private ManifestReading() {}

  /** {@code scan.manifest.parallelism}, or the processors of this JVM. */
  static int parallelism(Options options) {
    Integer configured = options.get(PlanningOptions.SCAN_MANIFEST_PARALLELISM);
    return configured != null ? configured : Runtime.getRuntime().availableProcessors();
  }

  /**
   * The JVM's manifest cache bounded by {@code cache.manifest.max-memory}, or null when {@code
   * cache-enabled} is off.
   */
  @Nullable
  static ManifestCache driverCache(Options options) {
    if (!options.get(PlanningOptions.CACHE_ENABLED)) {
      return null;
    }
    ManifestCache cache = ManifestCache.shared();
    Long max = options.get(PlanningOptions.CACHE_MANIFEST_MAX_MEMORY);
    long bound = max != null ? max : ManifestCache.DEFAULT_MAX_BYTES;
    if (cache.maxBytes() != bound) {
      cache.resize(bound);
    }
    return cache;
  }
}
