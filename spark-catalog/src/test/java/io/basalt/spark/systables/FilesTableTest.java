package io.basalt.spark.systables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FilesTableTest {

  @Test
  void fileSourceUsesPaimonsNames() {
    assertThat(FilesTable.fileSource(0)).isEqualTo("APPEND");
    assertThat(FilesTable.fileSource(1)).isEqualTo("COMPACT");
    assertThat(FilesTable.fileSource(null)).isNull();
    assertThatThrownBy(() -> FilesTable.fileSource(7))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Unknown file source 7 in a manifest; expected 0 (APPEND) or 1 (COMPACT)");
  }
}
