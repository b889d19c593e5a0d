package io.basalt.format;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * What the files of one write learned about dictionary encoding, so its later files skip
 * dictionaries that would be thrown away.
 *
 * <p>Parquet builds a column's dictionary (a hash map over every value) and, at the first page,
 * writes the page again plainly when the dictionary saves nothing: the common case for keys,
 * timestamps and measures. A bucket's file is often a single page, so that wasted work covers every
 * value of the file. The buckets of one write hold rows of the same source, so a column whose
 * dictionary was dropped in one file is written plainly in the next ones. Every {@value
 * #RETRY_INTERVAL}th file tries every dictionary again, so a column whose values start to repeat
 * gets its dictionary back. The files read the same either way; only their encoding differs.
 *
 * <p>Thread-safe: a write's compactions run on another thread and share it.
 */
public final class DictionaryHints {
  static final int RETRY_INTERVAL = 8;

  private final Set<String> plain = new HashSet<>();
  private long filesOpened;

  /**
   * The top-level columns the next file should write without a dictionary; empty every {@value
   * #RETRY_INTERVAL}th file.
   */
  synchronized Set<String> nextFile() {
    filesOpened++;
    if (filesOpened % RETRY_INTERVAL == 0) {
      return Set.of();
    }
    return Set.copyOf(plain);
  }

  /**
   * Learns from a finished file: a top-level column none of whose pages is dictionary-encoded is
   * written plainly from now on; one with a dictionary keeps it.
   */
  synchronized void learn(ParquetMetadata footer) {
    List<BlockMetaData> blocks = footer.getBlocks();
    if (blocks.isEmpty()) {
      return;
    }
    Set<String> withDictionary = new HashSet<>();
    Set<String> columns = new HashSet<>();
    for (BlockMetaData block : blocks) {
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        String[] path = chunk.getPath().toArray();
        if (path.length != 1) {
          continue; // nested columns keep Parquet's own choice
        }
        columns.add(path[0]);
        Set<Encoding> encodings = chunk.getEncodings();
        if (encodings.contains(Encoding.PLAIN_DICTIONARY)
            || encodings.contains(Encoding.RLE_DICTIONARY)) {
          withDictionary.add(path[0]);
        }
      }
    }
    for (String column : columns) {
      if (withDictionary.contains(column)) {
        plain.remove(column);
      } else {
        plain.add(column);
      }
    }
  }

  /** The columns written plainly from now on (a copy). */
  public synchronized Set<String> plainColumns() {
    return Set.copyOf(plain);
  }
}
