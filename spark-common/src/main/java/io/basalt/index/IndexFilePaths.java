package io.basalt.index;

import io.basalt.fs.TablePaths;
import io.basalt.utils.Check;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.Path;

/**
 * Names and locates index files: {@code <table root>/index/index-<uuid>-<n>} (format-notes.md
 * section 1). Each instance picks one random uuid and counts {@code n} up from 0, so the names it
 * hands out never collide with other writers'. Thread-safe.
 */
public final class IndexFilePaths implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The directory under the table root. */
  public static final String DIRECTORY = "index";

  /** The prefix of every index file name. */
  public static final String PREFIX = "index-";

  private final TablePaths paths;
  private final String namePrefix;
  private final AtomicInteger counter = new AtomicInteger();

  public IndexFilePaths(TablePaths paths) {
    this.paths = Check.notNull(paths, "paths");
    this.namePrefix = TablePaths.newFilePrefix(PREFIX);
  }

  /** The {@code index/} directory of the table. */
  public Path dir() {
    return new Path(paths.root(), DIRECTORY);
  }

  /** The path of index file {@code fileName} in {@link #dir()}. */
  public Path toPath(String fileName) {
    Check.notNull(fileName, "fileName");
    return new Path(dir(), fileName);
  }

  /** Where {@code file} lives: its external path when it has one, otherwise in {@link #dir()}. */
  public Path toPath(IndexFileMeta file) {
    return file.externalPath() == null ? toPath(file.fileName()) : new Path(file.externalPath());
  }

  /** A fresh index file name, {@code index-<uuid>-<n>}. */
  public String newFileName() {
    return namePrefix + counter.getAndIncrement();
  }
}
