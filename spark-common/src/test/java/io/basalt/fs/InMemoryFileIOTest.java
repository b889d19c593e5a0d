package io.basalt.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class InMemoryFileIOTest {
  private final InMemoryFileIO io = new InMemoryFileIO();

  @Test
  void createsListsRenamesAndDeletes() throws Exception {
    Path dir = new Path("mem:/t/manifest");
    try (OutputStream out = io.create(new Path(dir, "a"), false)) {
      out.write("hello".getBytes(StandardCharsets.UTF_8));
      assertThat(io.size(new Path(dir, "a"))).isEqualTo(5); // visible while written, as on HDFS
    }
    assertThat(io.tryCreateAtomically(new Path(dir, "b"), "x")).isTrue();
    assertThat(io.tryCreateAtomically(new Path(dir, "b"), "y")).isFalse();
    assertThat(io.readUtf8(new Path(dir, "b"))).isEqualTo("x");
    io.overwriteUtf8(new Path("mem:/t/snapshot/LATEST"), "3");
    assertThat(io.list(new Path("mem:/t")))
        .extracting(FileStatus::getPath)
        .extracting(Path::getName)
        .containsExactly("manifest", "snapshot");
    assertThat(io.rename(new Path(dir, "a"), new Path(dir, "b"))).isFalse();
    assertThat(io.rename(new Path(dir, "a"), new Path(dir, "c"))).isTrue();
    assertThat(io.list(dir)).extracting(s -> s.getPath().getName()).containsExactly("b", "c");
    assertThat(io.delete(new Path(dir, "zz"), false)).isFalse();
    assertThat(io.delete(new Path("mem:/t"), true)).isTrue();
    assertThat(io.paths()).isEmpty();
    assertThat(io.exists(dir)).isFalse();
  }

  @Test
  void refusesHadoopOnlyCallsWithAFix() {
    assertThatThrownBy(io::conf)
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("InMemoryFileIO has no Hadoop configuration")
        .hasMessageContaining("Fix: use FileIO.local()");
    assertThatThrownBy(() -> io.fileSystem(new Path("mem:/t")))
        .hasMessageContaining("no Hadoop file system for mem:/t");
    assertThatThrownBy(() -> io.open(new Path("mem:/t/none")))
        .hasMessageContaining("File mem:/t/none does not exist");
  }

  @Test
  void faultInjectorFailsTheNthOperationBeforeOrAfterIt() throws Exception {
    FaultInjectingFileIO faulty = new FaultInjectingFileIO(io);
    faulty.failAt(FaultInjectingFileIO.Op.CREATE, 2, FaultInjectingFileIO.Fault.FAIL_BEFORE);
    assertThat(faulty.tryCreateAtomically(new Path("mem:/a"), "1")).isTrue();
    assertThatThrownBy(() -> faulty.tryCreateAtomically(new Path("mem:/b"), "2"))
        .hasMessageContaining("Injected failure before CREATE of mem:/b");
    assertThat(io.exists(new Path("mem:/b"))).isFalse();
    faulty.failAt(FaultInjectingFileIO.Op.CREATE, 1, FaultInjectingFileIO.Fault.FAIL_AFTER);
    assertThatThrownBy(() -> faulty.tryCreateAtomically(new Path("mem:/c"), "3"))
        .hasMessageContaining("Injected failure after CREATE of mem:/c (it happened)");
    assertThat(io.readUtf8(new Path("mem:/c"))).isEqualTo("3");
    assertThat(faulty.injected()).isEqualTo(2);
  }
}
