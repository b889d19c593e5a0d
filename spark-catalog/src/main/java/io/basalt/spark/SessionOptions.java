package io.basalt.spark;

import io.basalt.table.FileStoreTable;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Applies option precedence for one read or write (highest first): the read/write option, the
 * session conf {@code spark.paimon.<catalog>.<db>.<table>.<key>} (parts may be {@code *}; the
 * catalog part is not checked, since a table loaded by path has none), the session conf {@code
 * spark.paimon.<key>}, the table option, the default.
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
      if (parts.length == 4
          && name.length == 2
          && matches(parts[1], name[0])
          && matches(parts[2], name[1])) {
        perTable.put(parts[3], e.getValue());
      } else {
        options.put(rest, e.getValue());
      }
    }
    options.putAll(perTable);
    options.putAll(explicit.asCaseSensitiveMap());
    return options.isEmpty() ? table : table.copyWithOptions(options);
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
