package io.basalt.spark.it.engine;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a main class of this module in a separate JVM with the test class path and the JVM options
 * of the root pom's {@code spark.jvm.options}; its output goes to a log file.
 */
final class ForkedJvm {
  /** The same list as {@code spark.jvm.options} in the root pom.xml. */
  static final List<String> SPARK_JVM_OPTIONS =
      List.of(
          "-XX:+IgnoreUnrecognizedVMOptions",
          "--add-modules=jdk.incubator.vector",
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
          "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
          "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
          "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
          "-Djdk.reflect.useDirectMethodHandle=false",
          "-Dio.netty.tryReflectionSetAccessible=true");

  private final Process process;
  private final Path log;

  private ForkedJvm(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  static ForkedJvm start(Path log, List<String> jvmOptions, Class<?> main, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(SPARK_JVM_OPTIONS);
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath());
    command.add(main.getName());
    command.addAll(Arrays.asList(args));
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new ForkedJvm(process, log);
  }

  /** Surefire and failsafe may hide the real class path behind a manifest-only jar. */
  private static String classPath() {
    String testClassPath = System.getProperty("surefire.test.class.path");
    return testClassPath != null && !testClassPath.isBlank()
        ? testClassPath
        : System.getProperty("java.class.path", "") + File.pathSeparator;
  }

  /** Waits for the exit code; kills the JVM and fails when it takes longer than {@code seconds}. */
  int waitFor(long seconds) throws InterruptedException, IOException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          "forked JVM did not finish within " + seconds + " s; output:\n" + output());
    }
    return process.exitValue();
  }

  /** Kills the JVM with SIGKILL (no shutdown hooks, no finally blocks) and waits for it to end. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  String output() throws IOException {
    return Files.readString(log);
  }
}
