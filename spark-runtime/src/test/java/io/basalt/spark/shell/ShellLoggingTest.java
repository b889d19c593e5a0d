package io.basalt.spark.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The shell's log configuration keeps task failures from printing their trace twice more. */
class ShellLoggingTest {

  @Test
  void loggersThatRepeatATaskTraceAreOff() throws IOException {
    Properties properties = new Properties();
    try (InputStream in =
        BasaltSql.class.getClassLoader().getResourceAsStream("basalt-sql-log4j2.properties")) {
      properties.load(in);
    }
    Map<String, String> levels = new HashMap<>();
    for (String key : properties.stringPropertyNames()) {
      if (key.startsWith("logger.") && key.endsWith(".name")) {
        String prefix = key.substring(0, key.length() - ".name".length());
        levels.put(properties.getProperty(key), properties.getProperty(prefix + ".level"));
      }
    }
    for (String logger : BasaltSql.TASK_FAILURE_LOGGERS) {
      assertThat(levels).as(logger).containsEntry(logger, "off");
    }
  }
}
