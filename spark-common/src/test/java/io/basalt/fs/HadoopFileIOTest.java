package io.basalt.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import java.io.File;
import java.io.OutputStream;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HadoopFileIOTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void theConfigurationStillYieldsAHadoopLocalFileSystem() throws Exception {
    // S3A (and others) buffer uploads on local disk through FileSystem.getLocal(conf), which
    // casts to LocalFileSystem: a raw local file system configured for file: broke every s3a write
    LocalFileSystem local = FileSystem.getLocal(FileIO.local().conf());
    assertThat(local).isNotNull();
  }

  @Test
  void localWritesLeaveNoChecksumFiles() throws Exception {
    FileIO io = FileIO.local();
    Path file = new Path(dir.toUri().toString(), "data.bin");
    try (OutputStream out = io.create(file, false)) {
      out.write(new byte[] {1, 2, 3});
    }
    io.overwriteUtf8(new Path(dir.toUri().toString(), "LATEST"), "1");
    assertThat(io.tryCreateAtomically(new Path(dir.toUri().toString(), "snapshot-1"), "s"))
        .isTrue();
    assertThat(dir.toFile().list()).containsExactlyInAnyOrder("data.bin", "LATEST", "snapshot-1");
    assertThat(io.size(file)).isEqualTo(3);
    assertThat(io.readUtf8(new Path(dir.toUri().toString(), "LATEST"))).isEqualTo("1");
  }

  @Test
  void probesThePrimitiveOfEachStore() {
    FileIO io = FileIO.hadoop(storeConf());
    assertThat(io.atomicCreate(new Path(dir.toUri().toString()))).isEqualTo(AtomicCreate.LINK);
    assertThat(io.atomicCreate(new Path("nostore:///x"))).isEqualTo(AtomicCreate.NONE);
  }

  @Test
  void refusesAnAtomicCreateOnAStoreWithoutAPrimitive() {
    FileIO io = FileIO.hadoop(storeConf());
    Path target = new Path("nostore://" + dir.toAbsolutePath() + "/snapshot-1");
    assertThatThrownBy(() -> io.tryCreateAtomically(target, "x"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Cannot create " + target + " atomically")
        .hasMessageContaining("file system nostore:/// has no create-if-absent primitive")
        .hasMessageContaining("Fix: enable a commit lock or single-writer mode");
    assertThat(new File(dir.toFile(), "snapshot-1")).doesNotExist();
  }

  @Test
  void recognisesS3aConditionalPutRefusals() {
    assertThat(
            StorePrimitives.preconditionFailed(
                new java.io.IOException(
                    "put on snapshot-2: software.amazon.awssdk.services.s3.model.S3Exception: At"
                        + " least one of the pre-conditions you specified did not hold (Service:"
                        + " S3, Status Code: 412, Request ID: x)")))
        .isTrue();
    assertThat(StorePrimitives.preconditionFailed(new java.io.IOException("connection reset")))
        .isFalse();
  }

  @Test
  void aDeserialisedFileIOKeepsTheConfigurationAndSharesItWithItsTwins() throws Exception {
    Configuration conf = new Configuration();
    conf.set("basalt.test.marker", "lookup-" + dir);
    HadoopFileIO io = new HadoopFileIO(conf);
    byte[] serialised = serialise(io);
    assertThat(serialise(io)).isEqualTo(serialised);

    FileIO first = deserialise(serialised);
    FileIO second = deserialise(serialise(io));
    assertThat(first.conf().get("basalt.test.marker")).isEqualTo("lookup-" + dir);
    assertThat(first.conf().get("fs.file.impl"))
        .isEqualTo(ChecksumFreeLocalFileSystem.class.getName());
    // every task of a query carries the same bytes: decoded once, then shared
    assertThat(second.conf()).isSameAs(first.conf());
    // a FileIO over another configuration gets its own
    conf.set("basalt.test.marker", "other-" + dir);
    FileIO other = deserialise(serialise(new HadoopFileIO(conf)));
    assertThat(other.conf()).isNotSameAs(first.conf());
    assertThat(other.conf().get("basalt.test.marker")).isEqualTo("other-" + dir);
    // and a deserialised FileIO works
    Path file = new Path(dir.toUri().toString(), "after-deserialise");
    assertThat(first.tryCreateAtomically(file, "x")).isTrue();
    assertThat(first.readUtf8(file)).isEqualTo("x");
  }

  @Test
  void aLocalFileSystemIsBuiltOncePerFileIO() {
    FileIO io = FileIO.local();
    Path a = new Path(dir.toUri().toString(), "a");
    Path b = new Path(dir.toUri().toString(), "b");
    assertThat(io.fileSystem(a)).isSameAs(io.fileSystem(b));
    assertThat(io.fileSystem(a)).isInstanceOf(ChecksumFreeLocalFileSystem.class);
    // another FileIO has its own, as Hadoop's cache is off for file:
    assertThat(FileIO.local().fileSystem(a)).isNotSameAs(io.fileSystem(a));
  }

  private static byte[] serialise(Object value) throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    return bytes.toByteArray();
  }

  private static FileIO deserialise(byte[] bytes) throws Exception {
    try (java.io.ObjectInputStream in =
        new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes))) {
      return (FileIO) in.readObject();
    }
  }

  private static Configuration storeConf() {
    Configuration conf = new Configuration();
    conf.set("fs.nostore.impl", NoStoreFileSystem.class.getName());
    conf.setBoolean("fs.nostore.impl.disable.cache", true);
    return conf;
  }

  /** A local file system under another scheme: a store Basalt knows no primitive of. */
  public static final class NoStoreFileSystem extends RawLocalFileSystem {
    @Override
    public URI getUri() {
      return URI.create("nostore:///");
    }

    @Override
    public String getScheme() {
      return "nostore";
    }
  }
}
