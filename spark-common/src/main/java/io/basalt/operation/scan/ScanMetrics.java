package io.basalt.operation.scan;

/**
 * What planning did: manifests decoded from storage, taken from the manifest cache and skipped by
 * their statistics; files planned and skipped by statistics; buckets pruned.
 */
public record ScanMetrics(
    long manifestsRead,
    long manifestsFromCache,
    long manifestsSkipped,
    long filesPlanned,
    long filesSkipped,
    long bucketsSkipped) {

  /** Metrics of a plan that took no manifest from the cache. */
  public ScanMetrics(
      long manifestsRead,
      long manifestsSkipped,
      long filesPlanned,
      long filesSkipped,
      long bucketsSkipped) {
    this(manifestsRead, 0, manifestsSkipped, filesPlanned, filesSkipped, bucketsSkipped);
  }

  /** Both plans' work added up (a plan made of two, such as a fallback branch's). */
  public ScanMetrics plus(ScanMetrics other) {
    return new ScanMetrics(
        manifestsRead + other.manifestsRead,
        manifestsFromCache + other.manifestsFromCache,
        manifestsSkipped + other.manifestsSkipped,
        filesPlanned + other.filesPlanned,
        filesSkipped + other.filesSkipped,
        bucketsSkipped + other.bucketsSkipped);
  }
}
