package io.basalt.options;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltErrorClass;
import io.basalt.BasaltException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TableOptionCheckTest {
  private static final List<String> COLUMNS = List.of("id", "name", "items", "g1", "g2", "v");

  private static void check(String key, String value) {
    TableOptionCheck.check(Map.of(key, value), COLUMNS, "db.t");
  }

  @Test
  void nearMissesOfBasaltAndPaimonKeysAreRefused() {
    assertThatThrownBy(() -> check("merge_engine", "partial-update"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Unknown option 'merge_engine' on table db.t")
        .hasMessageContaining("did you mean 'merge-engine'?")
        .hasMessageContaining("Fix: write 'merge-engine' = 'partial-update'");
    assertThatThrownBy(() -> check("deletion-vector.enabled", "true"))
        .hasMessageContaining("did you mean 'deletion-vectors.enabled'?");
    // a Paimon key Basalt does not implement is a candidate too
    assertThatThrownBy(() -> check("lookup.cach-rows", "10"))
        .hasMessageContaining("did you mean 'lookup.cache-rows'?");
    assertThatThrownBy(() -> check("merge_engine", "x"))
        .satisfies(
            e ->
                org.assertj.core.api.Assertions.assertThat(((BasaltException) e).errorClass())
                    .isEqualTo(BasaltErrorClass.BASALT_INVALID_OPTION));
  }

  @Test
  void valuesOfBasaltOptionsMustParseAndBeInRange() {
    assertThatThrownBy(() -> check("deletion-vectors.enabled", "yes"))
        .hasMessageContaining(
            "Invalid value 'yes' for option 'deletion-vectors.enabled' on table db.t: expected"
                + " true or false");
    assertThatThrownBy(() -> check("merge-engine", "partial_update"))
        .hasMessageContaining(
            "expected one of deduplicate, partial-update, aggregation, first-row (did you mean"
                + " 'partial-update'?)");
    assertThatThrownBy(() -> check("write-buffer-size", "0 mb"))
        .hasMessageContaining("Invalid value '0 mb' for option 'write-buffer-size'")
        .hasMessageContaining("expected at least 1 bytes");
    assertThatThrownBy(() -> check("target-file-size", "big"))
        .hasMessageContaining("expected a size such as '256 mb'");
    assertThatCode(() -> check("write-buffer-size", "64 mb")).doesNotThrowAnyException();
  }

  @Test
  void enumValuesOfPaimonOptionsAreChecked() {
    // an enum Paimon defines and Basalt does not implement
    assertThatThrownBy(() -> check("sort-engine", "loser_tree"))
        .hasMessageContaining(
            "Invalid value 'loser_tree' for option 'sort-engine' on table db.t: expected one of"
                + " min-heap, loser-tree. Did you mean 'loser-tree'?");
    assertThatCode(() -> check("sort-engine", "min-heap")).doesNotThrowAnyException();
    // one Basalt implements is checked by its own declaration
    assertThatThrownBy(() -> check("changelog-producer", "lokup"))
        .hasMessageContaining(
            "Invalid value 'lokup' for option 'changelog-producer' on table db.t: expected one of"
                + " none, input, lookup, full-compaction (did you mean 'lookup'?)");
    assertThatCode(() -> check("changelog-producer", "none")).doesNotThrowAnyException();
    assertThatCode(() -> check("scan.mode", "latest")).doesNotThrowAnyException();
  }

  @Test
  void flinkOptionsAndUnknownKeysAreKept() {
    assertThatCode(
            () ->
                TableOptionCheck.check(
                    Map.of(
                        "lookup.async", "true",
                        "sink.parallelism", "4",
                        "owner-team", "payments",
                        "my.app.version", "3",
                        "commit.callback.audit.param", "x"),
                    COLUMNS,
                    "db.t"))
        .doesNotThrowAnyException();
  }

  @Test
  void fieldOptionsNeedExistingColumnsAndKnownSettings() {
    assertThatCode(
            () ->
                TableOptionCheck.check(
                    Map.of(
                        "fields.v.aggregate-function", "sum",
                        "fields.items.nested-key", "k",
                        "fields.g1,g2.sequence-group", "v",
                        "fields.name.map.storage-layout", "default",
                        "fields.v.pk-vector.index.type", "x",
                        "fields.default-aggregate-function", "max"),
                    COLUMNS,
                    "db.t"))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> check("fields.price.aggregate-function", "sum"))
        .hasMessageContaining(
            "Option 'fields.price.aggregate-function' on table db.t names column 'price', which"
                + " does not exist; the columns are id, name, items, g1, g2, v.");
    assertThatThrownBy(() -> check("fields.g1,itmes.sequence-group", "v"))
        .hasMessageContaining("names column 'itmes'")
        .hasMessageContaining("Did you mean 'items'?");
    assertThatThrownBy(() -> check("fields.items.nested_key", "k"))
        .hasMessageContaining(
            "Option 'fields.items.nested_key' on table db.t is not a per-column setting")
        .hasMessageContaining("Did you mean 'nested-key'?");
    assertThatThrownBy(() -> check("fields.v.agg-function", "sum"))
        .hasMessageContaining("is not a per-column setting")
        .hasMessageContaining("aggregate-function");
  }
}
