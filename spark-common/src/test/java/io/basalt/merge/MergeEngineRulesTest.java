package io.basalt.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.options.Options;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-engine rules other packages ask {@link MergeEngineRules} instead of comparing names. */
class MergeEngineRulesTest {
  private static MergeEngineRules rules(String engine, String... keyValues) {
    Map<String, String> options = new HashMap<>();
    if (engine != null) {
      options.put("merge-engine", engine);
    }
    for (int i = 0; i < keyValues.length; i += 2) {
      options.put(keyValues[i], keyValues[i + 1]);
    }
    return MergeEngineRules.of(new Options(options, "db.t"));
  }

  /** A row of the rules' answers, in a fixed order, to compare engines at a glance. */
  private static String answers(MergeEngineRules rules) {
    return String.join(
        ",",
        rules.name(),
        "merges=" + rules.mergesVersions(),
        "valueFilters=" + rules.valueFiltersSafe(),
        "deletesByKey=" + rules.deletesByKey(),
        "replaces=" + rules.replacesWholeRows(),
        "latestOnly=" + rules.keepsLatestVersionOnly(),
        "aggregates=" + rules.aggregatesValueColumns(),
        "changes=" + rules.writtenRowsAreChanges());
  }

  @Test
  void eachEngineAnswersAsPaimonDefinesIt() {
    assertThat(answers(rules(null)))
        .isEqualTo(
            "deduplicate,merges=false,valueFilters=true,deletesByKey=true,replaces=true,"
                + "latestOnly=true,aggregates=false,changes=true");
    assertThat(answers(rules("Partial-Update")))
        .isEqualTo(
            "partial-update,merges=true,valueFilters=false,deletesByKey=false,replaces=true,"
                + "latestOnly=false,aggregates=false,changes=true");
    assertThat(answers(rules("aggregation")))
        .isEqualTo(
            "aggregation,merges=true,valueFilters=false,deletesByKey=false,replaces=false,"
                + "latestOnly=false,aggregates=true,changes=true");
    assertThat(answers(rules("first-row")))
        .isEqualTo(
            "first-row,merges=true,valueFilters=true,deletesByKey=false,replaces=false,"
                + "latestOnly=false,aggregates=false,changes=false");
  }

  @Test
  void removeOptionsMakeMergingEnginesDeleteByKey() {
    assertThat(
            rules("partial-update", "partial-update.remove-record-on-delete", "true")
                .deletesByKey())
        .isTrue();
    assertThat(
            rules("partial-update", "partial-update.remove-record-on-sequence-group", "ts")
                .deletesByKey())
        .isTrue();
    assertThat(rules("aggregation", "aggregation.remove-record-on-delete", "true").deletesByKey())
        .isTrue();
    assertThat(rules("first-row", "ignore-delete", "true").deletesByKey()).isFalse();
  }

  @Test
  void messagesNameTheOptionsThatAllowDeleteByKeyAndHowVersionsMerge() {
    assertThat(rules("partial-update").optionsAllowingDeleteByKey())
        .isEqualTo(
            "'partial-update.remove-record-on-delete' = 'true', or"
                + " 'partial-update.remove-record-on-sequence-group' = '<sequence fields>', or"
                + " 'ignore-delete' = 'true' (deletes are then dropped)");
    assertThat(rules("aggregation").optionsAllowingDeleteByKey())
        .isEqualTo(
            "'aggregation.remove-record-on-delete' = 'true', or 'ignore-delete' = 'true'"
                + " (deletes are then dropped)");
    assertThat(rules("first-row").optionsAllowingDeleteByKey())
        .isEqualTo("'ignore-delete' = 'true' (deletes are then dropped)");
    assertThat(rules("first-row").howVersionsMerge()).isEqualTo("keeping the first one");
    assertThat(rules("aggregation").howVersionsMerge()).isEqualTo("aggregating them");
  }
}
