package io.basalt.mergetree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.utils.CloseableIterator;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spill files come back whole, or the read fails naming the file; rows are never dropped. */
class SpillFileTest {
  private static final StructType SCHEMA =
      new StructType().add("id", DataTypes.LongType).add("s", DataTypes.StringType);
  private static final UnsafeProjection TO_UNSAFE = UnsafeProjection.create(SCHEMA);

  @TempDir Path dir;

  private static Iterator<InternalRow> rows(int count, int stringLength) {
    List<InternalRow> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rows.add(
          new GenericInternalRow(
              new Object[] {(long) i, UTF8String.fromString(("v" + i).repeat(stringLength))}));
    }
    return rows.iterator();
  }

  private static List<Long> readIds(SpillFile spill) {
    List<Long> ids = new ArrayList<>();
    try (CloseableIterator<InternalRow> it = spill.read()) {
      while (it.hasNext()) {
        InternalRow row = it.next();
        ids.add(row.getLong(0));
        assertThat(row.getUTF8String(1).toString()).startsWith("v" + row.getLong(0));
      }
    }
    return ids;
  }

  @Test
  void rowsComeBackInOrderAcrossBlocksAndRowsLargerThanABlock() {
    SpillFile spill = SpillFile.write(dir, 2, rows(500, 3), TO_UNSAFE, 256);
    assertThat(readIds(spill)).hasSize(500).isSorted();
    assertThat(spill.bytes()).isEqualTo(spill.path().toFile().length());

    SpillFile big = SpillFile.write(dir, 2, rows(5, 200), TO_UNSAFE, 256);
    assertThat(readIds(big)).containsExactly(0L, 1L, 2L, 3L, 4L);

    SpillFile empty = SpillFile.write(dir, 2, rows(0, 1), TO_UNSAFE, 256);
    assertThat(readIds(empty)).isEmpty();
  }

  @Test
  void aSpillTruncatedInTheMiddleOfARowFailsNamingTheFile() throws IOException {
    SpillFile spill = SpillFile.write(dir, 2, rows(100, 3), TO_UNSAFE);
    truncate(spill.path(), spill.bytes() / 2);
    assertThatThrownBy(() -> readIds(spill))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Spill file " + spill.path() + " is truncated")
        .hasMessageContaining("of 100 rows")
        .hasMessageContaining("spark.local.dir");
  }

  @Test
  void aSpillTruncatedAtABlockBoundaryFailsToo() throws IOException {
    SpillFile spill = SpillFile.write(dir, 2, rows(100, 3), TO_UNSAFE, 256);
    // only the end marker (a 12-byte header and the row count) is missing
    truncate(spill.path(), spill.bytes() - 20);
    assertThatThrownBy(() -> readIds(spill))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Spill file " + spill.path() + " is truncated")
        .hasMessageContaining("after 100 of 100 rows, before its end marker");
  }

  @Test
  void aFlippedByteFailsTheChecksumNamingTheFileAndBlock() throws IOException {
    SpillFile spill = SpillFile.write(dir, 2, rows(100, 3), TO_UNSAFE, 256);
    try (RandomAccessFile file = new RandomAccessFile(spill.path().toFile(), "rw")) {
      file.seek(40); // inside the first block's payload
      int b = file.read();
      file.seek(40);
      file.write(b ^ 0x10);
    }
    assertThatThrownBy(() -> readIds(spill))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Spill file " + spill.path() + " is corrupt: block 0 (at byte 0)")
        .hasMessageContaining("checksum mismatch");
  }

  @Test
  void aCorruptBlockLengthFailsNamingTheFile() throws IOException {
    SpillFile spill = SpillFile.write(dir, 2, rows(100, 3), TO_UNSAFE, 256);
    try (RandomAccessFile file = new RandomAccessFile(spill.path().toFile(), "rw")) {
      file.writeInt(1 << 30);
    }
    assertThatThrownBy(() -> readIds(spill))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Spill file " + spill.path() + " is corrupt")
        .hasMessageContaining("invalid block header (length 1073741824");
  }

  @Test
  void aHeaderRowCountThatDisagreesWithTheBlockFails() throws IOException {
    SpillFile spill = SpillFile.write(dir, 2, rows(100, 3), TO_UNSAFE, 256);
    try (RandomAccessFile file = new RandomAccessFile(spill.path().toFile(), "rw")) {
      file.seek(4); // the first block's row count; the checksum covers only the payload
      int rows = file.readInt();
      file.seek(4);
      file.writeInt(rows + 1);
    }
    assertThatThrownBy(() -> readIds(spill))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Spill file " + spill.path() + " is corrupt: block 0")
        .hasMessageMatching("(?s).*the header counts \\d+ rows, the block holds \\d+.*");
  }

  @Test
  void anEndMarkerThatDisagreesWithTheRowsFails() throws IOException {
    SpillFile spill = SpillFile.write(dir, 2, rows(100, 3), TO_UNSAFE, 256);
    try (RandomAccessFile file = new RandomAccessFile(spill.path().toFile(), "rw")) {
      file.seek(spill.bytes() - 8);
      file.writeLong(99);
    }
    assertThatThrownBy(() -> readIds(spill))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Spill file " + spill.path() + " is corrupt")
        .hasMessageContaining("the end marker counts 99 rows, but 100 were read and 100 written");
  }

  @Test
  void aRowLongerThanItsBlockFailsEvenWithAMatchingChecksum() throws IOException {
    SpillFile spill = SpillFile.write(dir, 2, rows(100, 3), TO_UNSAFE, 256);
    try (RandomAccessFile file = new RandomAccessFile(spill.path().toFile(), "rw")) {
      int length = file.readInt();
      byte[] payload = new byte[length];
      file.seek(12);
      file.readFully(payload);
      // the first row claims more bytes than the block holds; the checksum is made to match
      java.nio.ByteBuffer.wrap(payload).order(java.nio.ByteOrder.nativeOrder()).putInt(0, 4096);
      java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
      crc.update(payload);
      file.seek(8);
      file.writeInt((int) crc.getValue());
      file.write(payload);
    }
    assertThatThrownBy(() -> readIds(spill))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Spill file " + spill.path() + " is corrupt: block 0")
        .hasMessageContaining("a row of 4096 bytes does not fit its block");
  }

  @Test
  void spillsGoToSparksLocalDirectoriesInTurnAndToTmpdirOutsideSpark() {
    File[] localDirs = {new File("/disk1/blockmgr-a"), new File("/disk2/blockmgr-b")};
    assertThat(SpillDirs.choose(localDirs, 0)).isEqualTo(Path.of("/disk1/blockmgr-a/basalt-spill"));
    assertThat(SpillDirs.choose(localDirs, 1)).isEqualTo(Path.of("/disk2/blockmgr-b/basalt-spill"));
    assertThat(SpillDirs.choose(localDirs, 2)).isEqualTo(Path.of("/disk1/blockmgr-a/basalt-spill"));
    assertThat(SpillDirs.choose(new File[0], 0))
        .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "basalt-spill"));
    // no SparkEnv in a unit test JVM
    assertThat(SpillDirs.next())
        .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "basalt-spill"));
  }

  private static void truncate(Path path, long length) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
      file.setLength(length);
    }
    assertThat(Files.size(path)).isEqualTo(length);
  }
}
