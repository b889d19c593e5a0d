package io.basalt.tag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** Period arithmetic and the names of automatic tags, per period and formatter. */
class TagPeriodTest {
  private static final LocalDateTime START = LocalDateTime.of(2024, 12, 4, 10, 0);

  @Test
  void namesFollowPeriodAndFormatter() {
    assertThat(TagPeriod.of("daily", "with_dashes").name(START)).isEqualTo("2024-12-04");
    assertThat(TagPeriod.of("daily", "without_dashes").name(START)).isEqualTo("20241204");
    assertThat(TagPeriod.of("daily", "without_dashes_and_spaces").name(START))
        .isEqualTo("20241204");
    assertThat(TagPeriod.of("hourly", "with_dashes").name(START)).isEqualTo("2024-12-04 10");
    assertThat(TagPeriod.of("hourly", "without_dashes").name(START)).isEqualTo("20241204 10");
    assertThat(TagPeriod.of("hourly", "without_dashes_and_spaces").name(START))
        .isEqualTo("2024120410");
    // like Paimon, two-hours tags ignore the formatter
    assertThat(TagPeriod.of("two-hours", "without_dashes").name(START)).isEqualTo("2024-12-04 10");
  }

  @Test
  void namesParseBackToTheirPeriodStart() {
    for (String period : new String[] {"daily", "hourly", "two-hours"}) {
      for (String formatter :
          new String[] {"with_dashes", "without_dashes", "without_dashes_and_spaces"}) {
        TagPeriod tagPeriod = TagPeriod.of(period, formatter);
        LocalDateTime start = tagPeriod.periodStart(START.plusMinutes(17));
        assertThat(tagPeriod.parse(tagPeriod.name(start))).contains(start);
      }
    }
  }

  @Test
  void otherNamesAreNoAutomaticTags() {
    TagPeriod daily = TagPeriod.of("daily", "with_dashes");
    assertThat(daily.parse("release-1")).isEmpty();
    assertThat(daily.parse("20241204")).isEmpty();
    assertThat(daily.parse("2024-13-01")).isEmpty();
    assertThat(daily.parse("2024-12-04 10")).isEmpty();
    assertThat(TagPeriod.of("hourly", "with_dashes").parse("2024-12-04")).isEmpty();
    assertThat(TagPeriod.of("hourly", "with_dashes").parse("2024-12-04 24")).isEmpty();
  }

  @Test
  void periodsAlignToMidnightAndEvenHours() {
    LocalDateTime time = LocalDateTime.of(2024, 12, 4, 11, 59, 59);
    TagPeriod daily = TagPeriod.of("daily", "with_dashes");
    assertThat(daily.periodStart(time)).isEqualTo(LocalDateTime.of(2024, 12, 4, 0, 0));
    assertThat(daily.previousPeriodStart(time)).isEqualTo(LocalDateTime.of(2024, 12, 3, 0, 0));
    assertThat(daily.next(LocalDateTime.of(2024, 12, 31, 0, 0)))
        .isEqualTo(LocalDateTime.of(2025, 1, 1, 0, 0));
    TagPeriod hourly = TagPeriod.of("hourly", "with_dashes");
    assertThat(hourly.previousPeriodStart(time)).isEqualTo(LocalDateTime.of(2024, 12, 4, 10, 0));
    TagPeriod twoHours = TagPeriod.of("two-hours", "with_dashes");
    assertThat(twoHours.periodStart(time)).isEqualTo(LocalDateTime.of(2024, 12, 4, 10, 0));
    assertThat(twoHours.previousPeriodStart(time)).isEqualTo(LocalDateTime.of(2024, 12, 4, 8, 0));
    assertThat(twoHours.previousPeriodStart(LocalDateTime.of(2024, 12, 4, 0, 30)))
        .isEqualTo(LocalDateTime.of(2024, 12, 3, 22, 0));
  }

  @Test
  void unknownValuesFail() {
    assertThatThrownBy(() -> TagPeriod.of("weekly", "with_dashes"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Unknown tag creation period 'weekly'");
    assertThatThrownBy(() -> TagPeriod.of("daily", "slashes"))
        .isInstanceOf(BasaltException.class)
        .hasMessageContaining("Unknown tag period formatter 'slashes'");
  }
}
