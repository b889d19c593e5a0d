package io.basalt.options;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PaimonOptionKeysTest {

  @Test
  void listsPaimonsKeysWithTheirScope() {
    assertThat(PaimonOptionKeys.scope("merge-engine")).contains(PaimonOptionKeys.Scope.CORE);
    assertThat(PaimonOptionKeys.scope("lookup.async")).contains(PaimonOptionKeys.Scope.FLINK);
    assertThat(PaimonOptionKeys.scope("sink.parallelism")).contains(PaimonOptionKeys.Scope.FLINK);
    assertThat(PaimonOptionKeys.scope("read.changelog")).contains(PaimonOptionKeys.Scope.SPARK);
    assertThat(PaimonOptionKeys.scope("log.scan")).contains(PaimonOptionKeys.Scope.FALLBACK);
    assertThat(PaimonOptionKeys.scope("merge_engine")).isEmpty();
  }

  @Test
  void holdsTheKeysOfOptionsOtherEngineersAddThisSession() {
    // near-miss detection must know them before Basalt declares them
    for (String key :
        new String[] {
          "dynamic-bucket.target-row-num",
          "postpone.default-bucket-num",
          "row-tracking.enabled",
          "blob-field",
          "changelog-producer",
          "changelog.num-retained.min",
          "changelog.time-retained",
          "scan.mode",
          "consumer-id",
          "read.stream.maxFilesPerTrigger"
        }) {
      assertThat(PaimonOptionKeys.contains(key)).as(key).isTrue();
    }
  }

  @Test
  void everyBasaltOptionIsAPaimonKeyButAFew() {
    java.util.Set<String> basaltOnly =
        java.util.Set.of(
            // Paimon removed it in 1.1 (apache/paimon#5455); Basalt still reads it
            "compaction.max.file-num",
            // Parquet's own keys, which Paimon passes to the file format
            "parquet.block.size",
            "parquet.page.size",
            "parquet.dictionary.page.size",
            "parquet.page.row.count.limit",
            "parquet.writer.version",
            "parquet.bloom.filter.enabled",
            "parquet.compression.codec.zstd.level",
            // Basalt's storage-partitioned joins
            "scan.preserve-data-grouping",
            // a switch some guides write for cross-partition upsert tables; accepted as 'true'
            "cross-partition-upsert.enabled",
            // the commit lock: Paimon's catalog-lock keys (CatalogOptions, not CoreOptions) ...
            "lock.enabled",
            "lock.type",
            "lock-acquire-timeout",
            "lock-check-max-sleep",
            // ... and Basalt's file lock and single-writer mode (docs/object-stores.md)
            "lock.file.dir",
            "lock.file.stale-after",
            "commit.single-writer",
            // the manifest cache: Paimon's catalog keys (CatalogOptions), read like table options
            "cache-enabled",
            "cache.manifest.max-memory");
    for (ConfigOption<?> option : OptionRegistry.all()) {
      if (!basaltOnly.contains(option.key())) {
        assertThat(PaimonOptionKeys.contains(option.key())).as(option.key()).isTrue();
      }
    }
  }

  @Test
  void patternsAndAllowedValues() {
    assertThat(PaimonOptionKeys.contains("commit.callback.my-hook.param")).isTrue();
    assertThat(PaimonOptionKeys.contains("commit.callback.a.b.param")).isFalse();
    assertThat(PaimonOptionKeys.allowedValues("changelog-producer"))
        .containsExactly("none", "input", "full-compaction", "lookup");
    assertThat(PaimonOptionKeys.allowedValues("lookup.async")).isEmpty();
    assertThat(PaimonOptionKeys.isFieldSetting("nested-key")).isTrue();
    assertThat(PaimonOptionKeys.isFieldSetting("pk-vector.index.type")).isTrue();
    assertThat(PaimonOptionKeys.isFieldSetting("nested_key")).isFalse();
  }
}
