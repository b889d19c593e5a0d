package io.basalt.operation.history;

import static io.basalt.testing.TestTables.readAll;
import static io.basalt.testing.TestTables.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.fs.TablePaths;
import io.basalt.table.FileStoreTable;
import io.basalt.testing.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Branch layout, rollback, fast-forward and branch deletion on the engine, without Spark. */
class BranchHistoryTest {
  @TempDir Path dir;

  private FileStoreTable main;

  @BeforeEach
  void setUp() {
    main = TestTables.create(dir, true, List.of(), Map.of("bucket", "1", "write-only", "true"));
    upsert(main, Map.of(1L, "a"));
    upsert(main, Map.of(2L, "b"));
    upsert(main, Map.of(3L, "c"));
  }

  private long parquetFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".parquet")).count();
    }
  }

  @Test
  void branchPathsShareDataAndManifestsButNotMetadata() {
    TablePaths paths = main.paths().withBranch("dev");
    assertThat(paths.snapshotDir().toString()).endsWith("/branch/branch-dev/snapshot");
    assertThat(paths.schemaDir().toString()).endsWith("/branch/branch-dev/schema");
    assertThat(paths.tagDir().toString()).endsWith("/branch/branch-dev/tag");
    assertThat(paths.manifestDir()).isEqualTo(main.paths().manifestDir());
    assertThat(paths.bucketDir("", 0)).isEqualTo(main.paths().bucketDir("", 0));
    assertThat(paths.withBranch(TablePaths.MAIN_BRANCH).snapshotDir())
        .isEqualTo(main.paths().snapshotDir());
  }

  @Test
  void branchFromTagThenFastForward() throws IOException {
    main.tagManager().create("base", main.snapshotManager().snapshot(2));
    main.branchManager().create("dev", "base");
    FileStoreTable dev = main.switchToBranch("dev");
    assertThat(dev.name()).isEqualTo("db.t$branch_dev");
    assertThat(readAll(dev)).containsOnlyKeys(1L, 2L);

    upsert(dev, Map.of(10L, "x"));
    assertThat(dev.snapshotManager().latestSnapshotId()).hasValue(3);
    assertThat(readAll(main)).containsOnlyKeys(1L, 2L, 3L);
    long before = parquetFiles();

    assertThat(new FastForward(main).to("dev")).isEqualTo(3);
    FileStoreTable reloaded = main.switchToBranch(TablePaths.MAIN_BRANCH);
    assertThat(readAll(reloaded)).containsOnlyKeys(1L, 2L, 10L);
    // main's old snapshot 3 (key 3) was the only user of its file
    assertThat(parquetFiles()).isEqualTo(before - 1);
    upsert(reloaded, Map.of(4L, "d"));
    assertThat(readAll(reloaded)).containsOnlyKeys(1L, 2L, 4L, 10L);
  }

  @Test
  void rollbackKeepsFilesOfBranchesAndDeletesTheRest() throws IOException {
    main.tagManager().create("late", main.snapshotManager().snapshot(3));
    main.branchManager().create("b", "late");
    upsert(main, Map.of(4L, "d"));
    long before = parquetFiles();

    new Rollback(main).toSnapshot(1);
    assertThat(main.snapshotManager().ids()).containsExactly(1L);
    assertThat(main.tagManager().tagNames()).isEmpty();
    assertThat(readAll(main)).containsOnlyKeys(1L);
    // snapshot 4's file goes; those of 2 and 3 stay for branch b
    assertThat(parquetFiles()).isEqualTo(before - 1);
    assertThat(readAll(main.switchToBranch("b"))).containsOnlyKeys(1L, 2L, 3L);

    new DeleteBranch(main).delete(List.of("b"));
    assertThat(main.branchManager().branches()).isEmpty();
    assertThat(parquetFiles()).isEqualTo(before - 3);
  }

  @Test
  void badNamesAndMissingBranches() {
    main.branchManager().create("dev", null);
    assertThatThrownBy(() -> main.branchManager().create("dev", null))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Branch 'dev' already exists on table db.t");
    for (String bad : List.of("", "12", "a b", "a/b", "a$b", ".x")) {
      assertThatThrownBy(() -> main.branchManager().create(bad, null))
          .hasMessageContaining("Invalid branch name '" + bad + "' for table db.t");
    }
    assertThatThrownBy(() -> main.switchToBranch("nope"))
        .hasMessageContaining("Branch 'nope' does not exist on table db.t; existing branches: dev");
    assertThatThrownBy(() -> new DeleteBranch(main).delete(List.of("dev", "dev")))
        .hasMessageContaining("Branch 'dev' of table db.t is named twice");
    assertThatThrownBy(() -> main.switchToBranch("dev").branchManager().delete("main"))
        .hasMessageContaining("Cannot delete the main branch of table db.t");
    assertThat(main.branchManager().branches()).containsExactly("dev");
  }
}
