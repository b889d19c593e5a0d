package io.basalt.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Consumer files in Paimon's layout, their expiry, and the ids they accept. */
class ConsumerManagerTest {
  @TempDir Path dir;

  private ConsumerManager consumers() {
    return new ConsumerManager(
        FileIO.local(), new TablePaths(new org.apache.hadoop.fs.Path(dir.toUri())));
  }

  @Test
  void recordsNextSnapshotInPaimonsFile() throws Exception {
    ConsumerManager consumers = consumers();
    assertThat(consumers.nextSnapshot("job")).isEmpty();
    consumers.record("job", 7);
    assertThat(Files.readString(dir.resolve("consumer/consumer-job")))
        .isEqualTo("{\"nextSnapshot\":7}");
    assertThat(consumers.nextSnapshot("job")).hasValue(7);
    consumers.record("job", 9);
    consumers.record("other", 4);
    assertThat(consumers.minNextSnapshot(null, System.currentTimeMillis())).hasValue(4);
  }

  @Test
  void expiredConsumersHoldNothingAndAreDeleted() throws Exception {
    ConsumerManager consumers = consumers();
    consumers.record("old", 2);
    consumers.record("live", 5);
    Path old = dir.resolve("consumer/consumer-old");
    Files.setLastModifiedTime(
        old, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
    assertThat(consumers.minNextSnapshot(10_000L, System.currentTimeMillis())).hasValue(5);
    assertThat(Files.exists(old)).isFalse();
    assertThat(consumers().minNextSnapshot(null, System.currentTimeMillis()))
        .isEqualTo(OptionalLong.of(5));
  }

  @Test
  void illegalIdIsRefusedWithTheRule() {
    ConsumerManager.checkId("orders-to_warehouse.v2", "db.t");
    for (String id : new String[] {"a/b", ".hidden", "", "a b"}) {
      assertThatThrownBy(() -> ConsumerManager.checkId(id, "db.t"))
          .isInstanceOf(BasaltException.class)
          .hasMessageContaining("Invalid 'consumer-id' = '" + id + "' for table db.t")
          .hasMessageContaining("letters, digits, '-', '_' and '.'");
    }
  }

  @Test
  void fileWithoutNextSnapshotIsNamed() throws Exception {
    Files.createDirectories(dir.resolve("consumer"));
    Files.writeString(dir.resolve("consumer/consumer-bad"), "{}");
    assertThatThrownBy(() -> consumers().nextSnapshot("bad"))
        .hasMessageContaining("consumer-bad has no 'nextSnapshot'")
        .hasMessageContaining("Fix: delete the file");
  }
}
