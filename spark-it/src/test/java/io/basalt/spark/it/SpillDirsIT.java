package io.basalt.spark.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.mergetree.SpillDirs;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.Test;

/** Inside a Spark task, write buffers spill under the block manager's local directories. */
class SpillDirsIT extends SparkTestBase {

  @Test
  void spillsGoUnderSparksLocalDirectories() {
    List<String> dirs =
        spark
            .range(0, 4, 1, 2)
            .mapPartitions(
                (MapPartitionsFunction<Long, String>)
                    rows -> List.of(SpillDirs.next().toString()).iterator(),
                Encoders.STRING())
            .collectAsList();
    List<Path> localDirs = new ArrayList<>();
    for (File dir : SparkEnv.get().blockManager().diskBlockManager().localDirs()) {
      localDirs.add(dir.toPath());
    }
    assertThat(localDirs).isNotEmpty();
    assertThat(dirs)
        .hasSize(2)
        .allSatisfy(
            dir -> {
              Path path = Path.of(dir);
              assertThat(path.getFileName().toString()).isEqualTo("basalt-spill");
              assertThat(localDirs).contains(path.getParent());
            });
  }
}
