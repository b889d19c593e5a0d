package io.basalt.mergetree.compact;

import io.basalt.manifest.DataFileMeta;
import java.util.List;

/**
 * Files of one bucket whose key ranges do not overlap, in key order: they read as one sorted
 * stream. Each level-0 file is a run of its own; each higher level is one run.
 */
public record SortedRun(List<DataFileMeta> files) {
  public SortedRun {
    files = List.copyOf(files);
  }

  public long totalSize() {
    long size = 0;
    for (DataFileMeta file : files) {
      size += file.fileSize();
    }
    return size;
  }
}
