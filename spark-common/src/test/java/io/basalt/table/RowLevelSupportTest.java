package io.basalt.table;

import static org.assertj.core.api.Assertions.assertThat;
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
  void partialUpdateDeletesFromFilesWithoutARemoveOption() {
    FileStoreTable plain = table("partial-update");
    assertThatCode(() -> RowLevelSupport.checkDelete(plain)).doesNotThrowAnyException();
    assertThat(RowLevelSupport.deletesFromFiles(plain)).isTrue();
    assertThatThrownBy(() -> RowLevelSupport.checkDeleteByKey(plain, "MERGE INTO"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("MERGE INTO with a DELETE clause on db.t is not supported")
        .hasMessageContaining("'merge-engine' is 'partial-update'")
        .hasMessageContaining("'partial-update.remove-record-on-delete' = 'true'")
        .hasMessageContaining("'partial-update.remove-record-on-sequence-group'")
        .hasMessageContaining("'ignore-delete' = 'true'")
        .hasMessageContaining("ALTER TABLE db.t SET TBLPROPERTIES")
        .hasMessageContaining("or remove the rows with DELETE FROM db.t");
    for (String[] allowing :
        new String[][] {
          {"partial-update.remove-record-on-delete", "true"},
          {"partial-update.remove-record-on-sequence-group", "g"},
          {"ignore-delete", "true"}
        }) {
      FileStoreTable table = table("partial-update", allowing);
      assertThat(RowLevelSupport.deletesFromFiles(table)).isFalse();
      assertThatCode(() -> RowLevelSupport.checkDeleteByKey(table, "MERGE INTO"))
          .doesNotThrowAnyException();
    }
    assertThatCode(() -> RowLevelSupport.checkUpdate(table("partial-update"), "MERGE INTO"))
        .doesNotThrowAnyException();
  }

  @Test
  void aggregationDeletesFromFilesWithoutRemoveRecordOnDeleteAndUpdatesFail() {
    assertThat(RowLevelSupport.deletesFromFiles(table("aggregation"))).isTrue();
    assertThatCode(() -> RowLevelSupport.checkDelete(table("aggregation")))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> RowLevelSupport.checkDeleteByKey(table("aggregation"), "MERGE INTO"))
        .hasMessageContaining("'merge-engine' is 'aggregation'")
        .hasMessageContaining("'aggregation.remove-record-on-delete' = 'true'")
        .hasMessageContaining("'ignore-delete' = 'true'");
    assertThat(
            RowLevelSupport.deletesFromFiles(
                table("aggregation", "aggregation.remove-record-on-delete", "true")))
        .isFalse();
    assertThat(RowLevelSupport.deletesFromFiles(table("aggregation", "ignore-delete", "true")))
        .isFalse();
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
  void firstRowDeletesFromFilesExceptOnPostponedBucketsAndUpdatesFail() {
    assertThat(RowLevelSupport.deletesFromFiles(table("first-row"))).isTrue();
    assertThatCode(() -> RowLevelSupport.checkDelete(table("first-row")))
        .doesNotThrowAnyException();
    assertThat(RowLevelSupport.deletesFromFiles(table("first-row", "ignore-delete", "true")))
        .isFalse();
    assertThatThrownBy(() -> RowLevelSupport.checkDelete(table("first-row", "bucket", "-2")))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("DELETE FROM db.t is not supported")
        .hasMessageContaining("'merge-engine' is 'first-row'")
        .hasMessageContaining("postponed-bucket table ('bucket' = '-2')")
        .hasMessageContaining("'ignore-delete' = 'true' (deletes are then dropped)");
    assertThatCode(
            () ->
                RowLevelSupport.checkDelete(
                    table("first-row", "bucket", "-2", "ignore-delete", "true")))
        .doesNotThrowAnyException();
    assertThat(RowLevelSupport.deletesFromFiles(table("deduplicate"))).isFalse();
    assertThatThrownBy(() -> RowLevelSupport.checkUpdate(table("first-row"), "MERGE INTO"))
        .hasMessageContaining("MERGE INTO on db.t is not supported")
        .hasMessageContaining("keeping the first one");
  }
}
