package io.basalt.schema;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.fs.TablePaths;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Reads and publishes {@code schema/schema-<id>} files. The latest schema is the highest id found
 * by listing (schemas have no hint file); new schemas are created atomically, only if absent.
 */
public final class SchemaManager {
  private static final String PREFIX = "schema-";

  private final FileIO fileIO;
  private final TablePaths paths;

  public SchemaManager(FileIO fileIO, TablePaths paths) {
    this.fileIO = fileIO;
    this.paths = paths;
  }

  /** The latest schema, or empty when the directory holds no table. */
  public Optional<TableSchema> latest() {
    OptionalLong id = latestId();
    return id.isPresent() ? Optional.of(schema(id.getAsLong())) : Optional.empty();
  }

  /**
   * Reads schema {@code id}.
   *
   * @throws BasaltException naming the file when it is missing or corrupt
   */
  public TableSchema schema(long id) {
    Path file = paths.schemaFile(id);
    try {
      return SchemaParser.parse(fileIO.readUtf8(file), file.toString());
    } catch (FileNotFoundException e) {
      throw new BasaltException("Schema file " + file + " does not exist", e);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read schema file " + file, e);
    }
  }

  /** Publishes {@code schema} under its id; returns false when that id is already taken. */
  public boolean tryCommit(TableSchema schema) {
    try {
      return fileIO.tryCreateAtomically(paths.schemaFile(schema.id()), SchemaParser.toJson(schema));
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write schema " + schema.id() + " of " + paths, e);
    }
  }

  /** The ids of every schema file present, ascending. */
  public List<Long> ids() {
    List<Long> ids = new ArrayList<>();
    for (FileStatus status : fileIO.list(paths.schemaDir())) {
      String name = status.getPath().getName();
      if (name.startsWith(PREFIX)) {
        try {
          ids.add(Long.parseLong(name.substring(PREFIX.length())));
        } catch (NumberFormatException e) {
          continue; // a foreign file in schema/; not ours to interpret
        }
      }
    }
    Collections.sort(ids);
    return ids;
  }

  private OptionalLong latestId() {
    OptionalLong max = OptionalLong.empty();
    for (FileStatus status : fileIO.list(paths.schemaDir())) {
      String name = status.getPath().getName();
      if (!name.startsWith(PREFIX)) {
        continue;
      }
      try {
        long id = Long.parseLong(name.substring(PREFIX.length()));
        if (max.isEmpty() || id > max.getAsLong()) {
          max = OptionalLong.of(id);
        }
      } catch (NumberFormatException e) {
        continue; // a foreign file in schema/; not ours to interpret
      }
    }
    return max;
  }
}
