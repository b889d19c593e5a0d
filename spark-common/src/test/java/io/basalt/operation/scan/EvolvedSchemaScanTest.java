package io.basalt.operation.scan;

import static io.basalt.testing.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.operation.write.TableWrite;
import io.basalt.predicate.Leaf;
import io.basalt.schema.SchemaChange;
import io.basalt.schema.SchemaEvolution;
import io.basalt.schema.TableSchema;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File skipping and commits after a schema change, against files of the older schema. */
class EvolvedSchemaScanTest {
  @TempDir Path dir;

  /** An append table (id, v) with one file of schema 0, then v renamed to w and u added. */
  private FileStoreTable[] oldAndNew() {
    FileStoreTable table = TestTables.create(dir, false, List.of(), Map.of("bucket", "-1"));
    TableWrite write = table.newWrite(null, false);
    write.write(row(5, "m"));
    write.write(row(9, "q"));
    table.newCommit("u").commit(write.prepareCommit(), 1);
    TableSchema next =
        SchemaEvolution.apply(
            table.schema(),
            List.of(
                new SchemaChange.RenameColumn(List.of("v"), "w"),
                new SchemaChange.AddColumn(List.of("u"), DataTypes.StringType, true, null, null)),
            table.name(),
            1,
            System.currentTimeMillis());
    assertThat(table.schemaManager().tryCommit(next)).isTrue();
    return new FileStoreTable[] {table, table.copyWithSchema(next)};
  }

  private static Leaf eq(String column, String value) {
    return new Leaf(
        column, DataTypes.StringType, Leaf.Op.EQ, List.of(UTF8String.fromString(value)));
  }

  private static long filesPlanned(FileStoreTable table, io.basalt.predicate.Predicate filter) {
    return table.newScan().withFilter(filter).plan().metrics().filesPlanned();
  }

  @Test
  void statsOfOldFilesAreMatchedByFieldId() {
    FileStoreTable evolved = oldAndNew()[1];
    // the renamed column keeps its stats: 'a' is below the file's minimum 'm'
    assertThat(filesPlanned(evolved, eq("w", "a"))).isZero();
    assertThat(filesPlanned(evolved, eq("w", "p"))).isEqualTo(1);
    // the file lacks u: unknown stats may match, never skip wrongly
    assertThat(filesPlanned(evolved, eq("u", "x"))).isEqualTo(1);
    assertThat(
            filesPlanned(evolved, new Leaf("u", DataTypes.StringType, Leaf.Op.IS_NULL, List.of())))
        .isEqualTo(1);
    // the old name means nothing in the new schema
    assertThat(filesPlanned(evolved, eq("v", "a"))).isEqualTo(1);
  }

  @Test
  void aWriteStartedBeforeAColumnChangeIsNotCommitted() {
    FileStoreTable stale = oldAndNew()[0];
    TableWrite write = stale.newWrite(TestTables.latestId(stale), false);
    write.write(row(11, "z"));
    List<io.basalt.table.CommitMessage> messages = write.prepareCommit();
    assertThatThrownBy(() -> stale.newCommit("u").commit(messages, 2))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining(
            "The columns of table "
                + stale.name()
                + " changed (schema 0 to schema 1) while this write ran; nothing was committed");
    assertThat(stale.latestSnapshot().orElseThrow().id()).isEqualTo(1);
  }
}
