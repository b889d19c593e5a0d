package io.basalt.operation.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.SimpleStats;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiveFilesTest {

  private static ManifestEntry add(String name, int bucket, int level) {
    DataFileMeta file =
        DataFileMeta.newFile(
            name,
            100,
            10,
            BinaryRow.EMPTY,
            BinaryRow.EMPTY,
            SimpleStats.EMPTY,
            SimpleStats.EMPTY,
            0,
            9,
            0,
            level,
            0,
            DataFileMeta.SOURCE_APPEND,
            null);
    return new ManifestEntry(FileKind.ADD, BinaryRow.EMPTY, bucket, 2, file);
  }

  private static List<String> names(LiveFiles live) {
    return live.entries().stream().map(e -> e.file().fileName() + "/" + e.bucket()).toList();
  }

  @Test
  void addsThenDeletesFoldInOrder() {
    LiveFiles live = new LiveFiles("test");
    live.apply(add("a", 0, 0));
    live.apply(add("b", 0, 0));
    live.apply(add("c", 1, 0));
    live.apply(add("a", 0, 0).asDelete());
    assertThat(names(live)).containsExactly("b/0", "c/1");
    assertThat(live.unmatchedDeletes()).isEmpty();
    assertThat(live.entries()).allMatch(e -> e.kind() == FileKind.ADD);
  }

  @Test
  void deleteBeforeAddCancelsTheAdd() {
    LiveFiles live = new LiveFiles("test");
    live.apply(add("a", 0, 0).asDelete());
    assertThat(live.unmatchedDeletes()).hasSize(1);
    live.apply(add("a", 0, 0));
    assertThat(live.entries()).isEmpty();
    assertThat(live.unmatchedDeletes()).isEmpty();
  }

  @Test
  void sameNameInAnotherBucketOrLevelIsAnotherFile() {
    LiveFiles live = new LiveFiles("test");
    live.apply(add("a", 0, 0));
    live.apply(add("a", 1, 0));
    live.apply(add("a", 0, 1));
    live.apply(add("a", 0, 0).asDelete());
    assertThat(live.entries())
        .extracting(e -> e.bucket() + ":" + e.file().level())
        .containsExactly("1:0", "0:1");
  }

  @Test
  void addingAFileTwiceIsCorruption() {
    LiveFiles live = new LiveFiles("snapshot 7 of table db.t");
    live.apply(add("a", 1, 0));
    assertThatThrownBy(() -> live.apply(add("a", 1, 0)))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Corrupt table metadata in snapshot 7 of table db.t: file a of bucket 1 is added twice");
  }

  @Test
  void readdAfterDeleteIsAllowed() {
    LiveFiles live = new LiveFiles("test");
    live.apply(add("a", 0, 0));
    live.apply(add("a", 0, 0).asDelete());
    live.apply(add("a", 0, 0));
    assertThat(names(live)).containsExactly("a/0");
  }
}
