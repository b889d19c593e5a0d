package io.basalt.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.bucket.BucketFunction;
import io.basalt.data.BinaryRowCodec;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HashIndexFileTest {
  @TempDir Path dir;

  private final BinaryRowCodec orderId = new BinaryRowCodec(DataTypes.LongType);

  private int hash(long id) {
    return BucketFunction.hash(orderId.toBinary(new GenericInternalRow(new Object[] {id})));
  }

  private IndexFilePaths paths() {
    return new IndexFilePaths(new TablePaths(new org.apache.hadoop.fs.Path(dir.toUri())));
  }

  @Test
  void writesTheBytesOfFormatNotes72() throws IOException {
    IndexFilePaths paths = paths();
    HashIndexFile file = new HashIndexFile(FileIO.local(), paths);
    // format-notes.md 7.2: Paimon 1.3.1's HASH index of order ids 3, 1, 2 (BIGINT keys)
    IndexFileMeta meta = file.write(null, IntStream.of(hash(3), hash(1), hash(2)).iterator());

    byte[] bytes = Files.readAllBytes(Path.of(paths.toPath(meta).toUri()));
    assertThat(HexFormat.of().formatHex(bytes)).isEqualTo("d206e5475759f99e4fe4bbf0");
    assertThat(meta.indexType()).isEqualTo(IndexFileMeta.HASH);
    assertThat(meta.rowCount()).isEqualTo(3);
    assertThat(meta.fileSize()).isEqualTo(12);
    assertThat(meta.dvRanges()).isNull();
  }

  @Test
  void extendsThePreviousFileAndReadsBackInOrder() {
    HashIndexFile file = new HashIndexFile(FileIO.local(), paths());
    IndexFileMeta first = file.write(null, IntStream.of(hash(3), -1, 0).iterator());
    IndexFileMeta second = file.write(first, IntStream.of(hash(1), Integer.MIN_VALUE).iterator());

    List<Integer> read = new ArrayList<>();
    assertThat(file.forEach(second, read::add)).isEqualTo(5);
    assertThat(read).containsExactly(hash(3), -1, 0, hash(1), Integer.MIN_VALUE);
    assertThat(second.rowCount()).isEqualTo(5);
    assertThat(second.fileName()).isNotEqualTo(first.fileName());
  }

  @Test
  void refusesATruncatedFile() throws IOException {
    IndexFilePaths paths = paths();
    FileIO io = FileIO.local();
    String name = paths.newFileName();
    try (OutputStream out = io.create(paths.toPath(name), false)) {
      out.write(new byte[] {0, 0, 0, 1, 7, 7});
    }
    IndexFileMeta meta = new IndexFileMeta(IndexFileMeta.HASH, name, 6, 1, null, null);

    assertThatThrownBy(() -> new HashIndexFile(io, paths).forEach(meta, h -> {}))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("is truncated: its size is not a multiple of 4")
        .hasMessageContaining(name);
  }

  @Test
  void refusesADeletionVectorFile() {
    IndexFileMeta dv = IndexFileMeta.deletionVectors("index-x-0", 1, java.util.Map.of());
    assertThatThrownBy(() -> new HashIndexFile(FileIO.local(), paths()).forEach(dv, h -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Index file index-x-0 is a DELETION_VECTORS index, not a HASH index");
  }
}
