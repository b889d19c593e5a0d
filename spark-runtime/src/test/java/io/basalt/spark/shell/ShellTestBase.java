package io.basalt.spark.shell;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One local session per test class, and the shell's captured output and error streams. */
abstract class ShellTestBase {
  protected static SparkSession spark;

  protected final ByteArrayOutputStream out = new ByteArrayOutputStream();
  protected final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeAll
  static void startSpark() {
    spark = LocalSpark.start();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  protected static PrintStream utf8(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }

  protected String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  protected String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  static String lines(String... lines) {
    return String.join(System.lineSeparator(), lines) + System.lineSeparator();
  }
}
