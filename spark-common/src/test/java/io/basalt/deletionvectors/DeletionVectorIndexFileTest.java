package io.basalt.deletionvectors;

import static io.basalt.deletionvectors.DeletionVectorCodecTest.POSITION_1_BLOCK;
import static io.basalt.deletionvectors.DeletionVectorCodecTest.withCrc;
import static io.basalt.deletionvectors.DeletionVectorTest.vector32;
import static io.basalt.deletionvectors.DeletionVectorTest.vector64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import io.basalt.index.DeletionVectorMeta;
import io.basalt.index.IndexFileMeta;
import io.basalt.index.IndexFilePaths;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeletionVectorIndexFileTest {
  @TempDir java.nio.file.Path root;

  private IndexFilePaths paths;
  private DeletionVectorIndexFile files;

  @BeforeEach
  void setUp() {
    paths = new IndexFilePaths(new TablePaths(new Path(root.toUri())));
    files =
        new DeletionVectorIndexFile(
            FileIO.local(), paths, DeletionVectorIndexFile.DEFAULT_TARGET_SIZE);
  }

  private byte[] bytesOf(IndexFileMeta file) throws IOException {
    return Files.readAllBytes(root.resolve("index").resolve(file.fileName()));
  }

  @Test
  void oneVectorGivesTheVerifiedPaimonFile() throws IOException {
    List<IndexFileMeta> written = files.write(Map.of("data-a-0.parquet", vector32(1)));

    assertThat(written).hasSize(1);
    IndexFileMeta file = written.get(0);
    assertThat(file.fileName()).matches("index-[0-9a-f-]{36}-0");
    assertThat(file.indexType()).isEqualTo(IndexFileMeta.DELETION_VECTORS);
    assertThat(file.rowCount()).isEqualTo(1);
    assertThat(file.externalPath()).isNull();
    assertThat(file.dvRanges())
        .containsExactly(
            Map.entry("data-a-0.parquet", new DeletionVectorMeta("data-a-0.parquet", 1, 22, 1L)));
    byte[] expected = ByteBuffer.allocate(31).put((byte) 1).put(withCrc(POSITION_1_BLOCK)).array();
    assertThat(bytesOf(file)).isEqualTo(expected);
    assertThat(file.fileSize()).isEqualTo(31);
  }

  @Test
  void writesVectorsInOrderAndReadsEachBackBySeeking() throws IOException {
    Map<String, DeletionVector> vectors = new LinkedHashMap<>();
    vectors.put("z", vector32(0, 5, 9));
    vectors.put("a", vector64(3, 1L << 35));
    vectors.put("m", vector32(100_000));

    IndexFileMeta file = files.write(vectors).get(0);

    assertThat(file.dvRanges().keySet()).containsExactly("z", "a", "m");
    int offset = 1;
    for (Map.Entry<String, DeletionVector> entry : vectors.entrySet()) {
      byte[] block = DeletionVectorCodec.serialize(entry.getValue());
      DeletionVectorMeta range = file.dvRanges().get(entry.getKey());
      assertThat(range)
          .isEqualTo(
              new DeletionVectorMeta(
                  entry.getKey(),
                  offset,
                  DeletionVectorCodec.rangeLength(entry.getValue(), block),
                  entry.getValue().cardinality()));
      offset += block.length;
    }
    assertThat(file.fileSize()).isEqualTo(offset).isEqualTo(bytesOf(file).length);
    assertThat(file.dvRanges().get("a").length()) // 64-bit: the whole block
        .isEqualTo(DeletionVectorCodec.serialize(vectors.get("a")).length);

    assertThat(files.read(file.fileName(), file.dvRanges().get("a"))).isEqualTo(vectors.get("a"));
    assertThat(files.read(file.fileName(), file.dvRanges().get("m"))).isEqualTo(vectors.get("m"));
    assertThat(files.readAll(file)).containsExactlyEntriesOf(vectors);
  }

  @Test
  void rollsToANewFileOncePastTheTargetSize() {
    DeletionVectorIndexFile small = new DeletionVectorIndexFile(FileIO.local(), paths, 40);
    Map<String, DeletionVector> vectors = new LinkedHashMap<>();
    for (int i = 0; i < 5; i++) {
      vectors.put("data-" + i, vector32(i)); // 30-byte blocks: two fit before passing 40
    }

    List<IndexFileMeta> written = small.write(vectors);

    assertThat(written)
        .extracting(f -> f.dvRanges().keySet().stream().toList())
        .containsExactly(
            List.of("data-0", "data-1"), List.of("data-2", "data-3"), List.of("data-4"));
    assertThat(written).extracting(IndexFileMeta::fileSize).containsExactly(61L, 61L, 31L);
    assertThat(written).extracting(IndexFileMeta::rowCount).containsExactly(2L, 2L, 1L);
    Map<String, DeletionVector> readBack = new LinkedHashMap<>();
    written.forEach(file -> readBack.putAll(small.readAll(file)));
    assertThat(readBack).containsExactlyEntriesOf(vectors);
    String prefix = written.get(0).fileName().substring(0, 43);
    assertThat(written)
        .extracting(IndexFileMeta::fileName)
        .containsExactly(prefix + "0", prefix + "1", prefix + "2");
  }

  @Test
  void singleFileWritesIgnoreTheTargetSize() {
    DeletionVectorIndexFile small = new DeletionVectorIndexFile(FileIO.local(), paths, 40);
    Map<String, DeletionVector> vectors = new LinkedHashMap<>();
    for (int i = 0; i < 5; i++) {
      vectors.put("data-" + i, vector32(i));
    }

    IndexFileMeta file = small.writeSingleFile(vectors);

    assertThat(file.rowCount()).isEqualTo(5);
    assertThat(file.fileSize()).isEqualTo(1 + 5 * 30);
    assertThat(file.dvRanges().values())
        .extracting(DeletionVectorMeta::offset)
        .containsExactly(1, 31, 61, 91, 121);
    assertThat(small.readAll(file)).containsExactlyEntriesOf(vectors);
  }

  @Test
  void noVectorsGiveOneFileOfOnlyTheVersionByte() throws IOException {
    List<IndexFileMeta> written = files.write(Map.of());

    assertThat(written).hasSize(1);
    assertThat(written.get(0).dvRanges()).isEmpty();
    assertThat(written.get(0).rowCount()).isZero();
    assertThat(bytesOf(written.get(0))).containsExactly(1);
    assertThat(files.readAll(written.get(0))).isEmpty();
  }

  @Test
  void corruptBlockNamesTheIndexAndDataFile() throws IOException {
    IndexFileMeta file = files.write(Map.of("data-b.parquet", vector32(1, 2))).get(0);
    java.nio.file.Path path = root.resolve("index").resolve(file.fileName());
    byte[] bytes = Files.readAllBytes(path);
    bytes[12] ^= 0x40;
    Files.write(path, bytes);

    assertThatThrownBy(() -> files.read(file.fileName(), file.dvRanges().get("data-b.parquet")))
        .isInstanceOf(BasaltException.class)
        .hasMessageStartingWith(
            "Failed to read the deletion vector of data file data-b.parquet in index file "
                + paths.toPath(file.fileName())
                + " at offset 1: checksum mismatch (stored 0x")
        .hasMessageEndingWith("; the file is corrupt");
  }

  @Test
  void truncatedFileIsReported() throws IOException {
    IndexFileMeta file = files.write(Map.of("d", vector32(1))).get(0);
    java.nio.file.Path path = root.resolve("index").resolve(file.fileName());
    byte[] bytes = Files.readAllBytes(path);
    Files.write(path, java.util.Arrays.copyOf(bytes, bytes.length - 3));

    assertThatThrownBy(() -> files.readAll(file))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read the deletion vector of data file d in index file "
                + paths.toPath(file.fileName())
                + " at offset 1: the file ends inside the block of 30 bytes (truncated); the file"
                + " is corrupt");
  }

  @Test
  void rangeLengthThatDisagreesWithTheBlockIsReported() {
    IndexFileMeta file = files.write(Map.of("d", vector32(1))).get(0);

    assertThatThrownBy(() -> files.read(file.fileName(), new DeletionVectorMeta("d", 1, 30, 1L)))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read the deletion vector of data file d in index file "
                + paths.toPath(file.fileName())
                + " at offset 1: its block holds 22 bytes but the index manifest records a length"
                + " of 30 for this 32-bit vector; the file is corrupt");
  }

  @Test
  void otherVersionByteIsRejected() throws IOException {
    IndexFileMeta file = files.write(Map.of("d", vector32(1))).get(0);
    java.nio.file.Path path = root.resolve("index").resolve(file.fileName());
    byte[] bytes = Files.readAllBytes(path);
    bytes[0] = 2;
    Files.write(path, bytes);

    assertThatThrownBy(() -> files.readAll(file))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "Failed to read deletion vector index file "
                + paths.toPath(file.fileName())
                + ": it starts with version byte 2, expected 1");
  }

  @Test
  void readingAllOfAHashIndexFileIsRejected() {
    IndexFileMeta hash = new IndexFileMeta(IndexFileMeta.HASH, "index-h-0", 8, 2, null, null);

    assertThatThrownBy(() -> files.readAll(hash))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Index file index-h-0 of type HASH holds no deletion vectors");
  }

  @Test
  void failedWriteLeavesNoFiles() throws IOException {
    Map<String, DeletionVector> vectors = new LinkedHashMap<>();
    vectors.put("ok", vector32(1));
    vectors.put(null, vector32(2)); // the range record rejects it, mid-file

    DeletionVectorIndexFile small = new DeletionVectorIndexFile(FileIO.local(), paths, 10);
    assertThatThrownBy(() -> small.write(vectors))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("dataFileName must not be null");
    List<java.nio.file.Path> left = new ArrayList<>();
    try (var listing = Files.list(root.resolve("index"))) {
      listing.forEach(left::add);
    }
    assertThat(left).isEmpty();
  }
}
