package io.basalt.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearMissTest {
  private static final List<String> KEYS =
      List.of("merge-engine", "deletion-vectors.enabled", "bucket", "bucket-key", "type");

  @Test
  void underscoresAndCaseAreTheSameKey() {
    assertThat(NearMiss.closest("merge_engine", KEYS)).contains("merge-engine");
    assertThat(NearMiss.closest("Merge-Engine", KEYS)).contains("merge-engine");
    assertThat(NearMiss.closest("BUCKET", KEYS)).contains("bucket");
  }

  @Test
  void smallEditsAreNearMisses() {
    assertThat(NearMiss.closest("deletion-vector.enabled", KEYS))
        .contains("deletion-vectors.enabled");
    assertThat(NearMiss.closest("merge-egnine", KEYS)).contains("merge-engine");
    assertThat(NearMiss.closest("buckets", KEYS)).contains("bucket");
    assertThat(NearMiss.closest("bucket_keys", KEYS)).contains("bucket-key");
  }

  @Test
  void knownKeysAndDistantKeysAreNot() {
    assertThat(NearMiss.closest("bucket", KEYS)).isEmpty();
    assertThat(NearMiss.closest("owner-team", KEYS)).isEmpty();
    assertThat(NearMiss.closest("merge-engines-of-team-x", KEYS)).isEmpty();
    // short keys allow no edit: a user's own 'tag' or 'typo' is not 'type'
    assertThat(NearMiss.closest("typo", KEYS)).isEmpty();
    assertThat(NearMiss.closest("tpe", KEYS)).isEmpty();
  }

  @Test
  void distanceCountsSwapsAsOneEdit() {
    assertThat(NearMiss.distance("engine", "egnine")).isEqualTo(1);
    assertThat(NearMiss.distance("abc", "abc")).isZero();
    assertThat(NearMiss.distance("abc", "")).isEqualTo(3);
    assertThat(NearMiss.distance("kitten", "sitting")).isEqualTo(3);
  }
}
