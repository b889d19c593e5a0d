package io.basalt.changelog;

import io.basalt.options.ChangelogOptions;
import io.basalt.options.Options;

/**
 * Paimon's {@code lookup} changelog producer. Besides the changelog, it fixes the layout of a
 * bucket: whenever level 0 moves up, the lookup merges each key's new rows with its previous merged
 * value, so above level 0 each key's newest row is its whole merged value (older rows of the key in
 * lower levels are superseded, not merged again). Reads and compactions of such a table merge
 * accordingly, as Paimon's do.
 */
public final class LookupProducer {
  private LookupProducer() {}

  /** Whether the table's {@code changelog-producer} is {@code lookup}. */
  public static boolean enabled(Options options) {
    return ChangelogOptions.LOOKUP.equals(ChangelogProducerGuard.producer(options));
  }
}
