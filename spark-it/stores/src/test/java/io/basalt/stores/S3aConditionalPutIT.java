package io.basalt.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.fs.AtomicCreate;
import io.basalt.fs.FileIO;
import io.basalt.fs.StorePrimitivesAccess;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The S3 primitive Basalt commits with, checked below Spark: the server itself refuses a second
 * {@code If-None-Match: *} PUT of a key (the negative control: without it the race tests could not
 * fail), and Basalt's S3A FileIO creates through it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3aConditionalPutIT {
  private static final String BUCKET = "conditional";
  private S3Server server;

  @BeforeAll
  void start() throws Exception {
    server = new S3Server(BUCKET);
  }

  @AfterAll
  void stop() throws java.io.IOException {
    FileSystem.closeAll();
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theServerRejectsASecondConditionalPutOfOneKey() {
    try (S3Client s3 = server.client()) {
      s3.putObject(put("control/a", true), RequestBody.fromString("first"));
      assertThatThrownBy(
              () -> s3.putObject(put("control/a", true), RequestBody.fromString("second")))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
      assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("control/a")).asUtf8String())
          .isEqualTo("first");
      // and a plain PUT silently replaces the object: the hazard the condition guards against
      s3.putObject(put("control/a", false), RequestBody.fromString("third"));
      assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("control/a")).asUtf8String())
          .isEqualTo("third");
    }
  }

  @Test
  void s3aCreatesAtomicallyWithAConditionalPut() throws Exception {
    FileIO io = FileIO.hadoop(conf(Map.of()));
    Path dir = new Path("s3a://" + BUCKET + "/fileio");
    assertThat(io.atomicCreate(dir)).isEqualTo(AtomicCreate.CONDITIONAL_PUT);
    Path file = new Path(dir, "snapshot-1");
    assertThat(io.tryCreateAtomically(file, "first")).isTrue();
    assertThat(io.tryCreateAtomically(file, "second")).isFalse();
    assertThat(io.readUtf8(file)).isEqualTo("first");
  }

  @Test
  void aPutThatLosesTheRaceAfterTheExistenceCheckIsRefusedByTheServer() throws Exception {
    // S3A checks for the key before it uploads; the store's 412 is what decides a race that both
    // creators' checks passed. Simulate the loser: its check passed, then another PUT landed.
    FileIO io = FileIO.hadoop(conf(Map.of()));
    Path file = new Path("s3a://" + BUCKET + "/late/snapshot-1");
    FileSystem fs = io.fileSystem(file);
    var builder = fs.createFile(file).overwrite(false);
    builder.must("fs.option.create.conditional.overwrite", true);
    var out = builder.build(); // the existence check happens here
    try (S3Client s3 = server.client()) {
      s3.putObject(put("late/snapshot-1", true), RequestBody.fromString("winner"));
    }
    out.write("loser".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThatThrownBy(out::close)
        .satisfies(e -> assertThat(StorePrimitivesAccess.preconditionFailed(e)).isTrue());
    assertThat(io.readUtf8(file)).isEqualTo("winner");
  }

  @Test
  void withoutConditionalCreatesS3aHasNoPrimitiveAndPlainCommitsAreRefused() {
    FileIO io =
        FileIO.hadoop(
            conf(
                Map.of(
                    "fs.s3a.create.conditional.enabled",
                    "false",
                    "fs.s3a.impl.disable.cache",
                    "true")));
    Path dir = new Path("s3a://" + BUCKET + "/off");
    assertThat(io.atomicCreate(dir)).isEqualTo(AtomicCreate.NONE);
    assertThatThrownBy(() -> io.tryCreateAtomically(new Path(dir, "snapshot-1"), "x"))
        .hasMessageContaining("Cannot create s3a://" + BUCKET + "/off/snapshot-1 atomically")
        .hasMessageContaining("enable a commit lock or single-writer mode");
  }

  private Configuration conf(Map<String, String> extra) {
    Configuration conf = new Configuration();
    server.s3aConf().forEach(conf::set);
    extra.forEach(conf::set);
    return conf;
  }

  private static PutObjectRequest put(String key, boolean ifNoneMatch) {
    PutObjectRequest.Builder b = PutObjectRequest.builder().bucket(BUCKET).key(key);
    return ifNoneMatch ? b.ifNoneMatch("*").build() : b.build();
  }
}
