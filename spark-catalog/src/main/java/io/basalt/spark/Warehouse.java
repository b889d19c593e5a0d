package io.basalt.spark;

import io.basalt.fs.FileIO;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The directory layout of a catalog's warehouse, as Paimon's filesystem catalog has it: databases
 * are directories {@code <root>/<db>.db}, tables are directories inside them that hold a {@code
 * schema} directory.
 */
final class Warehouse {
  private static final String DATABASE_SUFFIX = ".db";

  private final FileIO fileIO;
  private final Path root;

  Warehouse(FileIO fileIO, Path root) {
    this.fileIO = fileIO;
    this.root = root;
  }

  /** The names of the databases, in listing order. */
  List<String> databases() {
    List<String> databases = new ArrayList<>();
    for (FileStatus status : fileIO.list(root)) {
      String dir = status.getPath().getName();
      if (status.isDirectory() && dir.endsWith(DATABASE_SUFFIX)) {
        databases.add(dir.substring(0, dir.length() - DATABASE_SUFFIX.length()));
      }
    }
    return databases;
  }

  boolean databaseExists(String database) {
    return fileIO.exists(databaseDir(database));
  }

  void createDatabase(String database) {
    fileIO.mkdirs(databaseDir(database));
  }

  /** Deletes the database with every table in it; false when there was nothing to delete. */
  boolean dropDatabase(String database) {
    return fileIO.delete(databaseDir(database), true);
  }

  /** The names of the tables of {@code database}, in listing order. */
  List<String> tables(String database) {
    List<String> tables = new ArrayList<>();
    for (FileStatus status : fileIO.list(databaseDir(database))) {
      if (status.isDirectory() && fileIO.exists(new Path(status.getPath(), "schema"))) {
        tables.add(status.getPath().getName());
      }
    }
    return tables;
  }

  Path tablePath(String database, String table) {
    return new Path(databaseDir(database), table);
  }

  private Path databaseDir(String database) {
    return new Path(root, database + DATABASE_SUFFIX);
  }
}
