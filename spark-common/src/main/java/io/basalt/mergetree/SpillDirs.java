package io.basalt.mergetree;

import java.io.File;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkEnv;

/**
 * Where write buffers spill: Spark's local directories (the block manager's, which Spark spreads
 * over {@code spark.local.dir} / the cluster manager's disks and deletes with the application) when
 * running inside Spark, otherwise {@code java.io.tmpdir}. Only Spark core is used, never the SQL
 * planner.
 */
public final class SpillDirs {
  static final String SUBDIRECTORY = "basalt-spill";
  private static final AtomicInteger NEXT = new AtomicInteger();

  private SpillDirs() {}

  /** A directory for the spills of one writer; successive calls take turns over the disks. */
  public static Path next() {
    SparkEnv env = SparkEnv.get();
    File[] localDirs =
        env == null || env.blockManager() == null
            ? new File[0]
            : env.blockManager().diskBlockManager().localDirs();
    return choose(localDirs, NEXT.getAndIncrement());
  }

  /** The {@code turn}-th choice among {@code localDirs}, or java.io.tmpdir when there are none. */
  static Path choose(File[] localDirs, int turn) {
    if (localDirs.length == 0) {
      return Paths.get(System.getProperty("java.io.tmpdir"), SUBDIRECTORY);
    }
    return localDirs[Math.floorMod(turn, localDirs.length)].toPath().resolve(SUBDIRECTORY);
  }
}
