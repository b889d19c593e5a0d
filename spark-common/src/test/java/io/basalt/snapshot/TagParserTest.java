package io.basalt.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.basalt.BasaltException;
import java.time.Duration;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** Tag files: the snapshot JSON plus Paimon's tagCreateTime and tagTimeRetained. */
class TagParserTest {
  private static final Snapshot SNAPSHOT =
      new Snapshot(
          Snapshot.CURRENT_VERSION,
          3,
          0,
          "base",
          10L,
          "delta",
          11L,
          null,
          null,
          null,
          "user",
          Snapshot.BATCH_COMMIT_IDENTIFIER,
          CommitKind.APPEND,
          1_700_000_000_000L,
          java.util.Map.of(),
          5L,
          5L,
          0L,
          42L,
          null,
          null,
          0L);

  @Test
  void withoutRetentionATagIsExactlyTheSnapshotJson() {
    assertThat(TagParser.toJson(SNAPSHOT, null, null)).isEqualTo(SnapshotParser.toJson(SNAPSHOT));
    Tag tag = TagParser.fromJson("t", SnapshotParser.toJson(SNAPSHOT), "tag-t");
    assertThat(tag.snapshot()).isEqualTo(SNAPSHOT);
    assertThat(tag.createTime()).isNull();
    assertThat(tag.expiresAt()).isEmpty();
  }

  @Test
  void retentionFieldsUsePaimonsEncodingAndRoundTrip() throws Exception {
    LocalDateTime created = LocalDateTime.of(2024, 12, 4, 10, 30, 5, 123_000_000);
    String json = TagParser.toJson(SNAPSHOT, created, Duration.ofDays(1));
    JsonNode node = new ObjectMapper().readTree(json);
    assertThat(node.get("tagCreateTime").toString()).isEqualTo("[2024,12,4,10,30,5,123000000]");
    assertThat(json).contains("\"tagTimeRetained\" : 86400.000000000");
    assertThat(node.get("id").asLong()).isEqualTo(3);

    Tag tag = TagParser.fromJson("t", json, "tag-t");
    assertThat(tag.snapshot()).isEqualTo(SNAPSHOT);
    assertThat(tag.createTime()).isEqualTo(created);
    assertThat(tag.timeRetained()).isEqualTo(Duration.ofDays(1));
    assertThat(tag.expiresAt()).contains(created.plusDays(1));
    // the snapshot parser ignores the two fields
    assertThat(SnapshotParser.fromJson(json, "tag-t")).isEqualTo(SNAPSHOT);
  }

  @Test
  void zeroSecondsAreLeftOutAndFractionsKept() throws Exception {
    String json =
        TagParser.toJson(SNAPSHOT, LocalDateTime.of(2024, 1, 2, 3, 4), Duration.ofMillis(1500));
    JsonNode node = new ObjectMapper().readTree(json);
    assertThat(node.get("tagCreateTime").toString()).isEqualTo("[2024,1,2,3,4]");
    assertThat(json).contains("\"tagTimeRetained\" : 1.500000000");
    Tag tag = TagParser.fromJson("t", json, "tag-t");
    assertThat(tag.createTime()).isEqualTo(LocalDateTime.of(2024, 1, 2, 3, 4));
    assertThat(tag.timeRetained()).isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void readsIsoStringsAndRejectsGarbage() {
    String base = SnapshotParser.toJson(SNAPSHOT);
    String iso =
        base.substring(0, base.lastIndexOf('}'))
            + ", \"tagCreateTime\": \"2024-12-04T10:30:00\", \"tagTimeRetained\": \"PT2H\"}";
    Tag tag = TagParser.fromJson("t", iso, "tag-t");
    assertThat(tag.createTime()).isEqualTo(LocalDateTime.of(2024, 12, 4, 10, 30));
    assertThat(tag.timeRetained()).isEqualTo(Duration.ofHours(2));

    String bad = base.substring(0, base.lastIndexOf('}')) + ", \"tagCreateTime\": [2024]}";
    assertThatThrownBy(() -> TagParser.fromJson("t", bad, "tag-t"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Tag file tag-t is corrupt")
        .hasMessageContaining("tagCreateTime");
  }
}
