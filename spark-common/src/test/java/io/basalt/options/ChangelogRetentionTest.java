package io.basalt.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Changelog retention: defaults from the snapshot retention, when it decouples, bad values. */
class ChangelogRetentionTest {

  private static ChangelogRetention of(Map<String, String> values) {
    return ChangelogRetention.of(new Options(values, "table db.t"));
  }

  @Test
  void unsetValuesFollowTheSnapshotRetention() {
    ChangelogRetention retention =
        of(
            Map.of(
                "snapshot.num-retained.min", "3",
                "snapshot.num-retained.max", "7",
                "snapshot.time-retained", "2 h"));
    assertThat(retention).isEqualTo(new ChangelogRetention(3, 7, 7_200_000L, 50, false));
  }

  @Test
  void anyLongerValueDecouplesTheChangelog() {
    assertThat(of(Map.of("changelog.num-retained.min", "11")).decoupled()).isTrue();
    assertThat(
            of(Map.of("changelog.num-retained.max", "20", "snapshot.num-retained.max", "15"))
                .decoupled())
        .isTrue();
    assertThat(of(Map.of("changelog.time-retained", "2 h")).decoupled()).isTrue();
  }

  @Test
  void aShorterRetentionChangesNothing() {
    // Paimon's rule: a snapshot keeps its own changelog, so a shorter changelog retention is moot
    ChangelogRetention shorter =
        of(
            Map.of(
                "snapshot.num-retained.min", "5",
                "changelog.num-retained.min", "2",
                "changelog.num-retained.max", "3",
                "changelog.time-retained", "1 min"));
    assertThat(shorter.decoupled()).isFalse();
    assertThat(shorter.retainMin()).isEqualTo(2);
  }

  @Test
  void minimumAboveMaximumNamesBothAndTheFix() {
    assertThatThrownBy(
            () ->
                of(Map.of("changelog.num-retained.min", "30", "changelog.num-retained.max", "20")))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Invalid changelog retention on table db.t: 'changelog.num-retained.min' (30) is above"
                + " 'changelog.num-retained.max' (20). Fix: set 'changelog.num-retained.min' <="
                + " 'changelog.num-retained.max', e.g. 'changelog.num-retained.max' = '30'.");
    // a maximum below the snapshot minimum it inherits as its own minimum
    assertThatThrownBy(() -> of(Map.of("changelog.num-retained.max", "4")))
        .hasMessageContaining("'changelog.num-retained.min' (10, from 'snapshot.num-retained.min')")
        .hasMessageContaining("'changelog.num-retained.max' (4)");
  }

  @Test
  void negativeOrZeroCountsAndBadTimesAreRefused() {
    assertThatThrownBy(() -> of(Map.of("changelog.num-retained.min", "-1")))
        .hasMessage(
            "Invalid value '-1' for option 'changelog.num-retained.min' on table db.t: expected an"
                + " integer >= 1 (the changelog of the latest snapshot is always kept). Fix: set"
                + " 'changelog.num-retained.min' to at least 1, or unset it to follow the snapshot"
                + " retention.");
    assertThatThrownBy(() -> of(Map.of("changelog.num-retained.max", "0")))
        .hasMessageContaining("Invalid value '0' for option 'changelog.num-retained.max'");
    assertThatThrownBy(() -> of(Map.of("changelog.time-retained", "-2 h")))
        .hasMessageContaining("Invalid value '-2 h' for option 'changelog.time-retained'")
        .hasMessageContaining("expected a duration such as '1 h' or '30 min'");
  }
}
