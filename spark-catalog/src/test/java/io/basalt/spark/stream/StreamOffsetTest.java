package io.basalt.spark.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import io.basalt.operation.stream.StreamPosition;
import org.junit.jupiter.api.Test;

/** Offsets as Spark checkpoints them. */
class StreamOffsetTest {
  @Test
  void roundTripsThroughItsJson() {
    StreamOffset offset = new StreamOffset(new StreamPosition(12, 3, true));
    assertThat(offset.json()).isEqualTo("{\"snapshot\":12,\"position\":3,\"full\":true}");
    assertThat(StreamOffset.parse(offset.json()).position()).isEqualTo(offset.position());
    // Spark compares offsets by their JSON
    assertThat(StreamOffset.parse(offset.json())).isEqualTo(offset);
  }

  @Test
  void foreignOffsetIsRefusedWithTheFix() {
    for (String json : new String[] {"{\"logOffset\":5}", "not json", "{\"snapshot\":\"x\"}"}) {
      assertThatThrownBy(() -> StreamOffset.parse(json))
          .isInstanceOf(BasaltException.class)
          .hasMessageContaining("Not a Basalt streaming offset: " + json)
          .hasMessageContaining("Fix: start the query on a new checkpoint");
    }
  }
}
