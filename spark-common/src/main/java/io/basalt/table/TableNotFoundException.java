package io.basalt.table;

import io.basalt.BasaltException;
import org.apache.hadoop.fs.Path;

/** No table exists where one was expected. */
public final class TableNotFoundException extends BasaltException {
  public TableNotFoundException(String name, Path root) {
    super("Table " + name + " does not exist at " + root);
  }
}
