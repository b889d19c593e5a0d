package io.basalt.fs.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.InMemoryFileIO;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class FileCommitLockTest {
  private final FileIO io = new InMemoryFileIO();
  private final Path file =
      FileCommitLock.lockFile(new Path("/locks"), new Path("/wh/db.db/t"), "db.t");

  private FileCommitLock lock(long timeoutMs, long staleAfterMs) {
    return new FileCommitLock(io, file, "db.t", timeoutMs, 5, staleAfterMs);
  }

  @Test
  void theLockFileNamesTheTableAndHashesItsLocation() {
    assertThat(file.getName()).matches("db\\.t-[0-9a-f]{16}\\.lock");
    Path other = FileCommitLock.lockFile(new Path("/locks"), new Path("/other/db.db/t"), "db.t");
    assertThat(other).isNotEqualTo(file);
  }

  @Test
  void holdsTheLockFileOnlyWhileTheActionRuns() throws IOException {
    String seen = lock(1_000, 60_000).runWithLock(() -> io.readUtf8(file));
    assertThat(seen).contains("\n");
    assertThat(io.exists(file)).isFalse();
  }

  @Test
  void releasesTheLockWhenTheActionFails() {
    assertThatThrownBy(
            () ->
                lock(1_000, 60_000)
                    .runWithLock(
                        () -> {
                          throw new IOException("boom");
                        }))
        .hasMessage("boom");
    assertThat(io.exists(file)).isFalse();
  }

  @Test
  void timesOutWhileAnotherWriterHoldsAFreshLock() throws IOException {
    io.tryCreateAtomically(file, "other\n" + System.currentTimeMillis() + "\n");
    assertThatThrownBy(() -> lock(50, 60_000).runWithLock(() -> true))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Timed out after 50 ms waiting for the commit lock " + file)
        .hasMessageContaining("of table db.t")
        .hasMessageContaining("raise 'lock-acquire-timeout'")
        .hasMessageContaining("removed after 'lock.file.stale-after' (60000 ms)");
    // the other writer's lock is untouched
    assertThat(io.readUtf8(file)).startsWith("other\n");
  }

  @Test
  void removesAStaleLockLeftByADeadWriter() throws IOException {
    io.tryCreateAtomically(file, "dead\n" + (System.currentTimeMillis() - 10_000) + "\n");
    assertThat(lock(5_000, 1_000).runWithLock(() -> io.readUtf8(file))).doesNotStartWith("dead");
    assertThat(io.list(new Path("/locks"))).isEmpty();
  }

  @Test
  void neverRemovesALockItCannotDate() throws IOException {
    io.tryCreateAtomically(file, "written by another tool");
    assertThatThrownBy(() -> lock(30, 1).runWithLock(() -> true))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Timed out");
    assertThat(io.readUtf8(file)).isEqualTo("written by another tool");
  }

  @Test
  void aStaleLockIsLeftAloneWhileAnotherWriterRemovesIt() throws IOException {
    String stale = "dead\n" + (System.currentTimeMillis() - 10_000) + "\n";
    io.tryCreateAtomically(file, stale);
    // another remover holds the marker for exactly this content
    Path marker = new Path(file.getParent(), file.getName() + ".remove-" + sha256(stale));
    io.tryCreateAtomically(marker, "");
    assertThatThrownBy(() -> lock(30, 1_000).runWithLock(() -> true))
        .hasMessageContaining("Timed out");
    assertThat(io.readUtf8(file)).isEqualTo(stale);
  }

  private static String sha256(String text) {
    try {
      return java.util.HexFormat.of()
          .formatHex(
              java.security.MessageDigest.getInstance("SHA-256")
                  .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
