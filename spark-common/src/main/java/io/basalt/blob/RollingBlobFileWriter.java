package io.basalt.blob;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.SimpleStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Writes the values of one BLOB column of one data file's rows into {@code .blob} files, starting a
 * new one when a file reaches the target size. {@link #closeRun} ends the run when its data file
 * ends, so each data file's rows are covered by its own blob files, in row order, as Paimon's
 * writer does.
 */
public final class RollingBlobFileWriter {
  private final Configuration conf;
  private final Path bucketDir;
  private final String column;
  private final BlobValueCodec codec;
  private final String filePrefix;
  private final long targetFileSize;
  private final long schemaId;
  private final List<Path> writtenPaths = new ArrayList<>();
  private final List<FinishedFile> run = new ArrayList<>();

  @Nullable private BlobFileWriter writer;
  private Path path;
  private String fileName;
  private int fileCounter;

  /**
   * @param filePrefix the name of each file before its counter and {@code .blob}
   */
  public RollingBlobFileWriter(
      Configuration conf,
      Path bucketDir,
      String column,
      BlobValueCodec codec,
      String filePrefix,
      long targetFileSize,
      long schemaId) {
    this.conf = conf;
    this.bucketDir = bucketDir;
    this.column = column;
    this.codec = codec;
    this.filePrefix = filePrefix;
    this.targetFileSize = targetFileSize;
    this.schemaId = schemaId;
  }

  /** Appends the next row's value: the one at {@code ordinal} of {@code row}, null included. */
  public void write(InternalRow row, int ordinal) {
    try {
      if (writer == null) {
        fileName = filePrefix + (fileCounter++) + ".blob";
        path = new Path(bucketDir, fileName);
        writtenPaths.add(path);
        writer = new BlobFileWriter(path.getFileSystem(conf).create(path, false));
      }
      codec.write(writer, row, ordinal);
      // blob values are large: checking the size after every value costs nothing
      if (writer.position() >= targetFileSize) {
        finishFile();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write blob file " + path, e);
    }
  }

  /**
   * Ends the run of the data file that just finished and returns its blob files, each with the data
   * file's sequence numbers and {@code writeCols} = [column].
   */
  public List<DataFileMeta> closeRun(long minSequence, long maxSequence) {
    try {
      if (writer != null) {
        finishFile();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to finish blob file " + path, e);
    }
    List<DataFileMeta> files = new ArrayList<>();
    for (FinishedFile file : run) {
      files.add(
          DataFileMeta.newFile(
                  file.name(),
                  file.size(),
                  file.rows(),
                  BinaryRow.EMPTY,
                  BinaryRow.EMPTY,
                  SimpleStats.EMPTY,
                  SimpleStats.EMPTY,
                  minSequence,
                  maxSequence,
                  schemaId,
                  0,
                  0,
                  DataFileMeta.SOURCE_APPEND,
                  List.of())
              .withWriteCols(List.of(column)));
    }
    run.clear();
    return files;
  }

  /** Closes the open file and deletes every file this writer wrote (an aborted write). */
  public void abort() {
    IOException failure = null;
    if (writer != null) {
      try {
        writer.close();
      } catch (IOException e) {
        failure = e;
      }
      writer = null;
    }
    for (Path file : writtenPaths) {
      try {
        file.getFileSystem(conf).delete(file, false);
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to delete aborted blob file " + file, e);
      }
    }
    if (failure != null) {
      throw new UncheckedIOException("Failed to close aborted blob file " + path, failure);
    }
  }

  private void finishFile() throws IOException {
    long size = writer.finish();
    run.add(new FinishedFile(fileName, size, writer.rowCount()));
    writer = null;
  }

  private record FinishedFile(String name, long size, long rows) {}
}
