package io.basalt.format.orc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.junit.jupiter.api.Test;

/** {@link OrcColumns#close}: both halves of an open ORC file are closed, failures named. */
class OrcColumnsTest {
  private final List<String> closed = new ArrayList<>();
  private final Path path = new Path("file:/warehouse/db.db/t/bucket-0/data-1.orc");

  /** A proxy of {@code type} whose close() records {@code name} and throws when {@code fails}. */
  private <T> T closing(Class<T> type, String name, boolean fails) {
    Object proxy =
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (self, method, args) -> {
              if (!method.getName().equals("close")) {
                throw new UnsupportedOperationException(method.getName());
              }
              closed.add(name);
              if (fails) {
                throw new IOException(name + " failed");
              }
              return null;
            });
    return type.cast(proxy);
  }

  @Test
  void closesTheRowsThenTheFile() {
    OrcColumns.close(
        closing(RecordReader.class, "rows", false), closing(Reader.class, "file", false), path);
    assertThat(closed).containsExactly("rows", "file");
  }

  @Test
  void theFileIsClosedWhenClosingTheRowsFailsAndTheFailureNamesThePath() {
    assertThatThrownBy(
            () ->
                OrcColumns.close(
                    closing(RecordReader.class, "rows", true),
                    closing(Reader.class, "file", true),
                    path))
        .isInstanceOf(BasaltException.class)
        .hasMessage("Failed to close ORC file " + path + ": rows failed")
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .extracting(Throwable::getMessage)
                    .containsExactly("file failed"));
    assertThat(closed).containsExactly("rows", "file");
  }

  @Test
  void aFailureClosingTheFileAloneIsNamedToo() {
    assertThatThrownBy(
            () ->
                OrcColumns.close(
                    closing(RecordReader.class, "rows", false),
                    closing(Reader.class, "file", true),
                    path))
        .hasMessage("Failed to close ORC file " + path + ": file failed");
  }
}
