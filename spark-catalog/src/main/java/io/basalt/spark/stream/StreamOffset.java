package io.basalt.spark.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.basalt.BasaltException;
import io.basalt.operation.stream.StreamPosition;
import java.io.IOException;
import org.apache.spark.sql.connector.read.streaming.Offset;

/**
 * A streaming read's offset as Spark checkpoints it: {@code {"snapshot": n, "position": p, "full":
 * b}}, the next split to read (see {@link StreamPosition}).
 */
final class StreamOffset extends Offset {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final StreamPosition position;

  StreamOffset(StreamPosition position) {
    this.position = position;
  }

  StreamPosition position() {
    return position;
  }

  @Override
  public String json() {
    return String.format(
        "{\"snapshot\":%d,\"position\":%d,\"full\":%s}",
        position.snapshotId(), position.position(), position.full());
  }

  static StreamOffset parse(String json) {
    try {
      JsonNode node = MAPPER.readTree(json);
      if (node == null
          || !node.path("snapshot").canConvertToLong()
          || !node.path("position").canConvertToInt()
          || !node.path("full").isBoolean()) {
        throw new BasaltException(
            "Not a Basalt streaming offset: "
                + json
                + ". Fix: start the query on a new checkpoint.");
      }
      return new StreamOffset(
          new StreamPosition(
              node.get("snapshot").asLong(),
              node.get("position").asInt(),
              node.get("full").asBoolean()));
    } catch (IOException e) {
      throw new BasaltException(
          "Not a Basalt streaming offset: " + json + ". Fix: start the query on a new checkpoint.",
          e);
    }
  }
}
