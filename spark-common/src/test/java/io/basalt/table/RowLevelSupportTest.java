package io.basalt.table;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DELETE / UPDATE / MERGE INTO support matrix of the merge engines. */
class RowLevelSupportTest {
  @TempDir Path dir;
  private int tables;

  private FileStoreTable table(String engine, String... options) {
    Map<String, String> all = new HashMap<>();
    all.put("merge-engine", engine);
    for (int i = 0; i < options.length; i += 2) {
      all.put(options[i], options[i + 1]);
    }
    return TestTables.create(dir.resolve("t" + tables++), true, List.of(), Map.of("bucket", "1"))
        .copyWithOptions(all);
  }

  @Test
  void deduplicateAcceptsEverything() {
    FileStoreTable table = table("deduplicate");
    assertThatCode(() -> RowLevelSupport.checkDelete(table)).doesNotThrowAnyException();
    assertThatCode(() -> RowLevelSupport.checkUpdate(table, "UPDATE")).doesNotThrowAnyException();
    assertThatCode(() -> RowLevelSupport.checkDelete(table("deduplicate", "ignore-delete", "true")))
        .doesNotThrowAnyException();
  }

  @Test
  void appendTablesAcceptEverything() {
    FileStoreTable append = TestTables.create(dir, false, List.of(), Map.of());
    assertThatCode(() -> RowLevelSupport.checkDelete(append)).doesNotThrowAnyException();
    assertThatCode(() -> RowLevelSupport.checkUpdate(append, "MERGE INTO"))
        .doesNotThrowAnyException();
  }

  @Test
  void partialUpdateDeletesNeedARemoveOptionOrIgnoreDelete() {
    assertThatThrownBy(() -> RowLevelSupport.checkDelete(table("partial-update")))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("DELETE FROM db.t is not supported")
        .hasMessageContaining("'merge-engine' is 'partial-update'")
        .hasMessageContaining("'partial-update.remove-record-on-delete' = 'true'")
        .hasMessageContaining("'partial-update.remove-record-on-sequence-group'")
        .hasMessageContaining("'ignore-delete' = 'true'")
        .hasMessageContaining("ALTER TABLE db.t SET TBLPROPERTIES");
    for (String[] allowing :
        new String[][] {
          {"partial-update.remove-record-on-delete", "true"},
          {"partial-update.remove-record-on-sequence-group", "g"},
          {"ignore-delete", "true"}
        }) {
      assertThatCode(() -> RowLevelSupport.checkDelete(table("partial-update", allowing)))
          .doesNotThrowAnyException();
    }
    assertThatCode(() -> RowLevelSupport.checkUpdate(table("partial-update"), "MERGE INTO"))
        .doesNotThrowAnyException();
  }

  @Test
  void aggregationDeletesNeedRemoveRecordOnDeleteOrIgnoreDeleteAndUpdatesFail() {
    assertThatThrownBy(() -> RowLevelSupport.checkDelete(table("aggregation")))
        .hasMessageContaining("'merge-engine' is 'aggregation'")
        .hasMessageContaining("'aggregation.remove-record-on-delete' = 'true'")
        .hasMessageContaining("'ignore-delete' = 'true'");
    assertThatCode(
            () ->
                RowLevelSupport.checkDelete(
                    table("aggregation", "aggregation.remove-record-on-delete", "true")))
        .doesNotThrowAnyException();
    assertThatCode(() -> RowLevelSupport.checkDelete(table("aggregation", "ignore-delete", "true")))
        .doesNotThrowAnyException();
    assertThatThrownBy(
            () ->
                RowLevelSupport.checkUpdate(
                    table("aggregation", "aggregation.remove-record-on-delete", "true"), "UPDATE"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("UPDATE on db.t is not supported")
        .hasMessageContaining("'merge-engine' is 'aggregation'")
        .hasMessageContaining("aggregating them")
        .hasMessageContaining("Only 'deduplicate' and 'partial-update' tables");
  }

  @Test
  void firstRowDeletesNeedIgnoreDeleteAndUpdatesFail() {
    assertThatThrownBy(() -> RowLevelSupport.checkDelete(table("first-row")))
        .hasMessageContaining("'merge-engine' is 'first-row'")
        .hasMessageContaining("'ignore-delete' = 'true' (deletes are then dropped)");
    assertThatCode(() -> RowLevelSupport.checkDelete(table("first-row", "ignore-delete", "true")))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> RowLevelSupport.checkUpdate(table("first-row"), "MERGE INTO"))
        .hasMessageContaining("MERGE INTO on db.t is not supported")
        .hasMessageContaining("keeping the first one");
  }
}
