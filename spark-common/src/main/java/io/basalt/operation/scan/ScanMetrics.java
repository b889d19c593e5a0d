package io.basalt.operation.scan;

/** What planning did: manifests read and skipped, files planned and skipped by statistics. */
public record ScanMetrics(
    long manifestsRead,
    long manifestsSkipped,
    long filesPlanned,
    long filesSkipped,
    long bucketsSkipped) {}
