package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.options.ReadOptions;
import io.basalt.table.FileStoreTable;
import java.util.HashMap;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Applies option precedence for one read or write (highest first): the read/write option, the
 * session conf {@code spark.paimon.<catalog>.<db>.<table>.<key>} (parts may be {@code *}; the
 * catalog part is not checked, since a table loaded by path has none), the session conf {@code
 * spark.paimon.<key>}, the table option, the default. The {@code branch} option switches to that
 * branch.
 */
final class SessionOptions {
  private static final String PREFIX = "spark.paimon.";

  private SessionOptions() {}

  static FileStoreTable apply(FileStoreTable table, CaseInsensitiveStringMap explicit) {
    Map<String, String> options = new HashMap<>();
    String[] name = table.name().split("\\.", 2);
    Map<String, String> conf = sessionConf();
    Map<String, String> perTable = new HashMap<>();
    for (Map.Entry<String, String> e : conf.entrySet()) {
      if (!e.getKey().startsWith(PREFIX)) {
        continue;
      }
      String rest = e.getKey().substring(PREFIX.length());
      String[] parts = rest.split("\\.", 4);
      String source = "session conf '" + e.getKey() + "'";
      if (parts.length == 4
          && name.length == 2
          && matches(parts[1], name[0])
          && matches(parts[2], name[1])) {
        perTable.put(parts[3], e.getValue());
        SessionOptionCheck.check(source, parts[3], e.getValue(), table.name());
      } else {
        options.put(rest, e.getValue());
        if (parts.length < 4 || SessionOptionCheck.IMPLEMENTED.contains(rest)) {
          SessionOptionCheck.check(source, rest, e.getValue(), table.name());
        } // else: most likely scoped to another table, spark.paimon.<catalog>.<db>.<table>.<key>
      }
    }
    options.putAll(perTable);
    explicit
        .asCaseSensitiveMap()
        .forEach(
            (key, value) ->
                SessionOptionCheck.check("option '" + key + "'", key, value, table.name()));
    options.putAll(explicit.asCaseSensitiveMap());
    FileStoreTable result = options.isEmpty() ? table : table.copyWithOptions(options);
    return switchBranch(result, options.get(ReadOptions.BRANCH.key()));
  }

  /**
   * The table seen through the branch the {@code branch} option names, as Paimon switches branches
   * on that option. Spark has resolved the table's columns already, so the branch must have them.
   */
  private static FileStoreTable switchBranch(FileStoreTable table, @Nullable String branch) {
    if (branch == null || branch.isBlank() || branch.equals(table.branch())) {
      return table;
    }
    String key = ReadOptions.BRANCH.key();
    FileStoreTable switched;
    try {
      switched = table.switchToBranch(branch);
    } catch (BasaltException e) {
      throw new BasaltException(
          String.format(
              "Option '%s' = '%s' on table %s: %s", key, branch, table.name(), e.getMessage()),
          e);
    }
    if (!FileStoreTable.sameColumns(table.schema(), switched.schema())) {
      throw new BasaltException(
          String.format(
              "Option '%s' = '%s' on table %s: branch %s has the columns %s, but the table was"
                  + " resolved with %s. Fix: use the branch's own name, %s%s%s, instead of the"
                  + " option.",
              key,
              branch,
              table.name(),
              branch,
              switched.rowType().simpleString(),
              table.rowType().simpleString(),
              table.baseName(),
              FileStoreTable.BRANCH_MARKER,
              branch));
    }
    return switched;
  }

  private static boolean matches(String pattern, String value) {
    return "*".equals(pattern) || pattern.equals(value);
  }

  private static Map<String, String> sessionConf() {
    return SparkSession.getActiveSession().isDefined()
        ? scala.jdk.javaapi.CollectionConverters.asJava(SparkSession.active().conf().getAll())
        : new HashMap<>();
  }
}
