package io.basalt.operation.commit;

import static io.basalt.operation.commit.SyntheticFiles.append;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.data.BinaryRow;
import io.basalt.fs.FaultInjectingFileIO;
import io.basalt.fs.FaultInjectingFileIO.Op;
import io.basalt.fs.InMemoryFileIO;
import io.basalt.operation.expire.ExpireSnapshots;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A slow commit builds snapshot 2 on snapshot 1; meanwhile other writers commit 2 and 3 and an
 * expiration deletes 1 and 2. Creating snapshot-2 then succeeds, below snapshot 3: kept, the slow
 * commit's files would be in no latest snapshot. The commit must notice and land again on top.
 * Found by the model checker's long soak (seed 20926397).
 */
class FreedSnapshotIdTest {
  private final InMemoryFileIO memory = new InMemoryFileIO();
  private final FaultInjectingFileIO io = new FaultInjectingFileIO(memory);

  @Test
  void aSnapshotLandingInAnExpiredIdIsCommittedAgainOnTop() {
    SyntheticFiles f =
        new SyntheticFiles(SyntheticFiles.pkTable(io, "mem:/w/db.db/t", Map.of("bucket", "1")));
    FileStoreTable table = f.table();
    BinaryRow a = f.partition("a");
    table.newCommit("first").commit(List.of(append(a, 0, 1, f.file("f1", 0, 1, 1))), 1);

    boolean[] interleaved = {false};
    io.setHook(
        (op, path, index) -> {
          if (!interleaved[0] && op == Op.CREATE && path.getName().startsWith("snapshot-2")) {
            interleaved[0] = true;
            io.setHook(null);
            table.newCommit("other").commit(List.of(append(a, 0, 1, f.file("o2", 0, 2, 2))), 1);
            table.newCommit("other").commit(List.of(append(a, 0, 1, f.file("o3", 0, 3, 3))), 2);
            new ExpireSnapshots(table).expire(1, 1, Long.MAX_VALUE, 10);
            assertThat(table.snapshotManager().ids()).containsExactly(3L);
          }
        });
    table.newCommit("slow").commit(List.of(append(a, 0, 1, f.file("slow", 0, 4, 4))), 1);

    assertThat(interleaved[0]).isTrue();
    assertThat(table.snapshotManager().ids()).containsExactly(3L, 4L);
    Snapshot latest = table.latestSnapshot().orElseThrow();
    assertThat(latest.commitUser()).isEqualTo("slow");
    assertThat(table.newScan().liveEntries(latest))
        .extracting(e -> e.file().fileName())
        .containsExactlyInAnyOrder("f1", "o2", "o3", "slow");
  }
}
