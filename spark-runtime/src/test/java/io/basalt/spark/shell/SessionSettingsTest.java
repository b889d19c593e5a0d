package io.basalt.spark.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionSettingsTest {

  @Test
  void configuresLocalSessionWithBasaltCatalog() {
    Map<String, String> conf = SessionSettings.sessionConf(ShellOptions.parse(List.of()));
    assertThat(conf)
        .containsEntry("spark.master", "local[*]")
        .containsEntry("spark.ui.enabled", "false")
        .containsEntry("spark.driver.host", "127.0.0.1")
        .containsEntry("spark.driver.bindAddress", "127.0.0.1")
        .containsEntry("spark.sql.catalog.paimon", SessionSettings.CATALOG_CLASS)
        .containsEntry("spark.sql.defaultCatalog", "paimon")
        .containsEntry("spark.sql.extensions", SessionSettings.EXTENSIONS_CLASS)
        .containsEntry(
            "spark.sql.catalog.paimon.warehouse",
            Path.of("").toAbsolutePath().resolve(SessionSettings.DEFAULT_WAREHOUSE).toString());
  }

  @Test
  void confOverridesDefaultsAndWarehouse() {
    ShellOptions options =
        ShellOptions.parse(
            List.of(
                "--warehouse", "/a",
                "--conf", "spark.master=local[2]",
                "--conf", "spark.sql.catalog.paimon.warehouse=/b",
                "--conf", "spark.sql.extensions="));
    Map<String, String> conf = SessionSettings.sessionConf(options);
    assertThat(conf)
        .containsEntry("spark.master", "local[2]")
        .containsEntry("spark.sql.catalog.paimon.warehouse", "/b")
        .containsEntry("spark.sql.extensions", "");
  }

  @Test
  void resolvesLocalWarehouseAgainstWorkingDirectory() {
    Path cwd = Path.of("").toAbsolutePath();
    assertThat(SessionSettings.warehouse("wh/../data")).isEqualTo(cwd.resolve("data").toString());
    assertThat(SessionSettings.warehouse("/tmp/x/")).isEqualTo(Path.of("/tmp/x").toString());
  }

  @Test
  void passesUrisThrough() {
    assertThat(SessionSettings.warehouse("hdfs://nn:8020/wh")).isEqualTo("hdfs://nn:8020/wh");
    assertThat(SessionSettings.warehouse("s3a://bucket/wh")).isEqualTo("s3a://bucket/wh");
    assertThat(SessionSettings.warehouse("file:/tmp/wh")).isEqualTo("file:/tmp/wh");
  }
}
