package io.basalt.spark.shell;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/** The Spark configuration of the shell's session: Basalt's defaults, then the user's overrides. */
final class SessionSettings {
  static final String CATALOG_NAME = "paimon";
  static final String CATALOG_CLASS = "io.basalt.spark.SparkCatalog";
  static final String EXTENSIONS_CLASS = "io.basalt.spark.extensions.BasaltSparkSessionExtensions";
  static final String DEFAULT_WAREHOUSE = "warehouse";

  /** A URI scheme of two or more characters, so a Windows drive letter is not mistaken for one. */
  private static final Pattern URI_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+:.*");

  private SessionSettings() {}

  /**
   * Returns the session configuration for {@code options}: a local master with the UI off and the
   * driver on loopback, the {@code paimon} catalog as default catalog with its warehouse, Basalt's
   * session extensions, quiet logging, and finally every {@code --conf}, which overrides all of
   * these.
   */
  static Map<String, String> sessionConf(ShellOptions options) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.master", "local[*]");
    conf.put("spark.app.name", "basalt-sql");
    conf.put("spark.ui.enabled", "false");
    conf.put("spark.driver.host", "127.0.0.1");
    conf.put("spark.driver.bindAddress", "127.0.0.1");
    conf.put("spark.log.level", "WARN");
    conf.put("spark.sql.catalog." + CATALOG_NAME, CATALOG_CLASS);
    conf.put("spark.sql.catalog." + CATALOG_NAME + ".warehouse", warehouse(options.warehouse()));
    conf.put("spark.sql.defaultCatalog", CATALOG_NAME);
    conf.put("spark.sql.extensions", EXTENSIONS_CLASS);
    conf.putAll(options.conf());
    return conf;
  }

  /**
   * Resolves a {@code --warehouse} value: a URI such as {@code hdfs://nn/wh} or {@code file:/wh} is
   * kept as given, a local path becomes absolute against the working directory, and null means
   * {@code ./warehouse}.
   */
  static String warehouse(@Nullable String value) {
    String location = value == null ? DEFAULT_WAREHOUSE : value;
    if (URI_SCHEME.matcher(location).matches()) {
      return location;
    }
    return Path.of(location).toAbsolutePath().normalize().toString();
  }
}
