package io.basalt.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.data.RowKind;
import io.basalt.fs.FileIO;
import io.basalt.operation.write.TableWrite;
import io.basalt.schema.SchemaFactory;
import io.basalt.table.FileStoreTable;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writers drop retractions with ignore-delete and reject those the merge engine cannot apply. */
class MergeEngineWriteTest {
  @TempDir Path dir;

  private FileStoreTable table(String name, Map<String, String> options) {
    Map<String, String> all = new HashMap<>(options);
    all.put("bucket", "1");
    return FileStoreTable.create(
        FileIO.local(),
        new org.apache.hadoop.fs.Path(dir.resolve(name).toUri()),
        "db." + name,
        SchemaFactory.create(
            0, MergeEnginePropertyTest.SCHEMA, List.of(), List.of("id"), all, null));
  }

  private static InternalRow row() {
    return new GenericInternalRow(new Object[] {1L, 1, 2, 3, 4, 5, 6, null});
  }

  @Test
  void partialUpdateDeleteWithoutAnOptionFailsTheWrite() {
    TableWrite write = table("pu", Map.of("merge-engine", "partial-update")).newWrite(null, false);
    write.write(row());
    assertThatThrownBy(() -> write.write(row(), RowKind.DELETE))
        .hasMessageContaining("db.pu")
        .hasMessageContaining("-D")
        .hasMessageContaining("'ignore-delete' = 'true'")
        .hasMessageContaining("'partial-update.remove-record-on-delete' = 'true'")
        .hasMessageContaining("'partial-update.remove-record-on-sequence-group'");
    write.abort();
  }

  @Test
  void firstRowUpdateBeforeWithoutIgnoreDeleteFailsTheWrite() {
    TableWrite write = table("fr", Map.of("merge-engine", "first-row")).newWrite(null, false);
    assertThatThrownBy(() -> write.write(row(), RowKind.UPDATE_BEFORE))
        .hasMessageContaining("db.fr")
        .hasMessageContaining("-U")
        .hasMessageContaining("'ignore-delete' = 'true'");
    write.abort();
  }

  @Test
  void aggregationRetractionOfAFunctionThatCannotRetractFailsTheWrite() {
    TableWrite write =
        table("agg", Map.of("merge-engine", "aggregation", "fields.c.aggregate-function", "min"))
            .newWrite(null, false);
    assertThatThrownBy(() -> write.write(row(), RowKind.UPDATE_BEFORE))
        .hasMessageContaining("db.agg")
        .hasMessageContaining("column 'c' uses aggregate function 'min'")
        .hasMessageContaining("'fields.c.ignore-retract' = 'true'");
    write.abort();
  }

  @Test
  void ignoreDeleteDropsRetractionsBeforeTheyAreBuffered() {
    TableWrite write =
        table("ignored", Map.of("merge-engine", "first-row", "ignore-delete", "true"))
            .newWrite(null, false);
    write.write(row(), RowKind.DELETE);
    write.write(row(), RowKind.UPDATE_BEFORE);
    assertThat(write.prepareCommit()).isEmpty();
  }
}
