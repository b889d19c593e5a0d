package io.basalt.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HexFormat;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bytes of {@code .blob} files against the layout of docs/format.md, and reads of them. */
class BlobFileFormatTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void smallFileHasTheDocumentedBytes() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BlobFileWriter writer = new BlobFileWriter(out);
    writer.write(new byte[] {'A', 'B'});
    writer.write((byte[]) null);
    writer.write(new ByteArrayInputStream(new byte[] {'C'}));
    long size = writer.finish();

    // expected bytes worked out by hand from the layout; CRC-32 values from zlib.crc32
    String expected =
        // record 0: magic, "AB", record length 18 (LE long), CRC-32 of the 14 bytes before it
        "cf114e58"
            + "4142"
            + "1200000000000000"
            + "bb83d988"
            // row 1 is null: no record
            // record 2: magic, "C", record length 17, CRC-32
            + "cf114e58"
            + "43"
            + "1100000000000000"
            + "ba7caddb"
            // index: lengths 18, -1, 17 as deltas 18, -19, 18, zig-zag 36, 37, 36, varints
            + "242524"
            // footer: index length 3 (LE int), version 1
            + "03000000"
            + "01";
    assertThat(HexFormat.of().formatHex(out.toByteArray())).isEqualTo(expected);
    assertThat(size).isEqualTo(expected.length() / 2);
    assertThat(writer.rowCount()).isEqualTo(3);
  }

  @Test
  void indexVarintsSpanBytes() throws IOException {
    // 300 -> zig-zag 600 = 0x258 -> D8 04; -301 -> 601 -> D9 04; 18 -> 36 -> 24
    byte[] encoded = DeltaVarints.encode(new long[] {300, -1, 17}, 3);
    assertThat(HexFormat.of().formatHex(encoded)).isEqualTo("d804d90424");
    assertThat(DeltaVarints.decode(encoded)).containsExactly(300, -1, 17);
    assertThatThrownBy(() -> DeltaVarints.decode(new byte[] {(byte) 0x80}))
        .hasMessage("the index ends inside a varint");
  }

  @Test
  void readsValuesByRow() throws IOException {
    Path path = write("values.blob", new byte[] {1, 2, 3}, null, new byte[0], new byte[70_000]);
    try (BlobFileReader reader = open(path)) {
      assertThat(reader.rowCount()).isEqualTo(4);
      assertThat(reader.read(3)).hasSize(70_000);
      assertThat(reader.read(0)).containsExactly(1, 2, 3);
      assertThat(reader.read(1)).isNull();
      assertThat(reader.read(2)).isEmpty();
    }
  }

  @Test
  void damagedFilesFailNamingTheFile() throws IOException {
    Path path = write("bad.blob", new byte[] {1, 2, 3});
    byte[] bytes = Files.readAllBytes(dir.resolve("bad.blob"));
    bytes[5] ^= 1; // a payload byte: the CRC no longer matches
    Files.write(dir.resolve("bad.blob"), bytes);
    try (BlobFileReader reader = open(path)) {
      assertThatThrownBy(() -> reader.read(0))
          .hasMessageContaining("Blob file " + path)
          .hasMessageContaining("record 0 fails its length or CRC check");
    }
    bytes[bytes.length - 1] = 2;
    Files.write(dir.resolve("bad.blob"), bytes);
    assertThatThrownBy(() -> open(path))
        .hasMessageContaining("has format version 2; this reader knows version 1 only");
    Files.write(dir.resolve("bad.blob"), new byte[] {1, 2});
    assertThatThrownBy(() -> open(path))
        .hasMessageContaining("is damaged: it has 2 bytes, fewer than its 5-byte footer");
  }

  @Test
  void indexNotMatchingTheRecordsIsDamage() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BlobFileWriter writer = new BlobFileWriter(out);
    writer.write(new byte[] {9});
    writer.finish();
    byte[] bytes = out.toByteArray();
    // the index says 17 bytes (zig-zag 34 = 0x22); claim 18 (0x24) instead
    bytes[bytes.length - 6] = 0x24;
    Files.write(dir.resolve("index.blob"), bytes);
    Path path = new Path(dir.resolve("index.blob").toUri());
    assertThatThrownBy(() -> open(path))
        .hasMessageContaining("is damaged: its records take 18 bytes, its data region 17");
  }

  private Path write(String name, byte[]... values) throws IOException {
    Path path = new Path(dir.resolve(name).toUri());
    try (BlobFileWriter writer = new BlobFileWriter(fs().create(path))) {
      for (byte[] value : values) {
        writer.write(value);
      }
      writer.finish();
    }
    return path;
  }

  private BlobFileReader open(Path path) throws IOException {
    return BlobFileReader.open(fs(), path, fs().getFileStatus(path).getLen());
  }

  private static FileSystem fs() throws IOException {
    return FileSystem.getLocal(new Configuration()).getRaw(); // no .crc side files
  }
}
