package io.basalt.options;

/**
 * Options of how planning reads manifests: in parallel, and through the driver's manifest cache.
 * Paimon's names; Paimon sets the cache options on the catalog, Basalt resolves them like read
 * options (table option, {@code spark.paimon.<key>} session conf, read option).
 */
public final class PlanningOptions {
  private PlanningOptions() {}

  public static final ConfigOption<Integer> SCAN_MANIFEST_PARALLELISM =
      ConfigOption.key("scan.manifest.parallelism")
          .intType()
          .atLeast(1)
          .description(
              "How many manifests planning decodes at once; their entries are still applied in"
                  + " manifest order. Defaults to the number of available processors.");

  public static final ConfigOption<Boolean> CACHE_ENABLED =
      ConfigOption.key("cache-enabled")
          .booleanType()
          .defaultValue(true)
          .description(
              "Keep decoded manifests in the driver's memory (one cache per JVM, keyed by manifest"
                  + " path: manifests are never rewritten), so planning the same or a newer"
                  + " snapshot again decodes only the manifests it has not seen.");

  public static final ConfigOption<Long> CACHE_MANIFEST_MAX_MEMORY =
      ConfigOption.key("cache.manifest.max-memory")
          .memoryType()
          .atLeast(0)
          .description(
              "Bound of the manifest cache, in estimated heap bytes of the decoded entries; least"
                  + " recently used manifests are evicted beyond it. The cache is shared by the"
                  + " JVM, so the last planning that sets this wins: set it once for the session"
                  + " (spark.paimon.cache.manifest.max-memory). Defaults to 128 mb or a tenth of"
                  + " the heap, whichever is smaller.");
}
