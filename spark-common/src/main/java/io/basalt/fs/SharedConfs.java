package io.basalt.fs;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;

/**
 * Hadoop configurations as tasks carry them, decoded once per JVM: every task of every query ships
 * the same catalog configuration, and rebuilding its ~1,000 entries cost more than the rest of a
 * point lookup's task deserialisation. Decoded configurations are shared and must not be modified
 * (the contract of {@link FileIO#conf()}).
 */
final class SharedConfs {
  /** A JVM sees few distinct catalog configurations; the bound only guards against churn. */
  private static final int MAX_ENTRIES = 16;

  private static final Map<ByteBuffer, Configuration> DECODED =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Configuration> eldest) {
          return size() > MAX_ENTRIES;
        }
      };

  private SharedConfs() {}

  static byte[] encode(Configuration conf) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      conf.write(out);
    }
    return bytes.toByteArray();
  }

  /**
   * The configuration {@code encoded} holds, after {@code prepare}, shared with every earlier
   * decode of the same bytes.
   */
  static Configuration decode(byte[] encoded, UnaryOperator<Configuration> prepare)
      throws IOException {
    ByteBuffer key = ByteBuffer.wrap(encoded);
    synchronized (DECODED) {
      Configuration shared = DECODED.get(key);
      if (shared != null) {
        return shared;
      }
    }
    Configuration decoded = new Configuration(false);
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
      decoded.readFields(in);
    }
    decoded = prepare.apply(decoded);
    synchronized (DECODED) {
      Configuration raced = DECODED.putIfAbsent(key, decoded);
      return raced != null ? raced : decoded;
    }
  }
}
