package io.basalt.operation.partition;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading a partition's time from its values with the default forms, patterns and formatters. */
class PartitionTimeExtractorTest {

  @Test
  void defaultFormsReadTheFirstColumn() {
    PartitionTimeExtractor extractor = new PartitionTimeExtractor(List.of("dt", "hh"), null, null);
    assertThat(extractor.extract(List.of("2024-03-05", "10")))
        .isEqualTo(LocalDateTime.of(2024, 3, 5, 0, 0));
    assertThat(extractor.extract(List.of("2024-3-5 7:08:09", "x")))
        .isEqualTo(LocalDateTime.of(2024, 3, 5, 7, 8, 9));
    assertThat(extractor.extract(List.of("2024-03-05 07:08:09.5", "x")))
        .isEqualTo(LocalDateTime.of(2024, 3, 5, 7, 8, 9, 500_000_000));
  }

  @Test
  void patternJoinsColumnsAndFormatterParsesThem() {
    PartitionTimeExtractor extractor =
        new PartitionTimeExtractor(List.of("dt", "hh"), "$dt $hh", "yyyyMMdd HH");
    assertThat(extractor.extract(List.of("20240305", "07")))
        .isEqualTo(LocalDateTime.of(2024, 3, 5, 7, 0));
    PartitionTimeExtractor dateOnly =
        new PartitionTimeExtractor(List.of("region", "dt"), "$dt", "yyyyMMdd");
    assertThat(dateOnly.extract(List.of("eu", "20240305")))
        .isEqualTo(LocalDateTime.of(2024, 3, 5, 0, 0));
  }

  @Test
  void unreadableValuesGiveNoTime() {
    PartitionTimeExtractor extractor =
        new PartitionTimeExtractor(List.of("y", "m", "d"), "$y-$m-$d", null);
    assertThat(extractor.extract(List.of("2024", "02", "30"))).isNull();
    assertThat(extractor.extract(Arrays.asList("2024", null, "01"))).isNull();
    assertThat(new PartitionTimeExtractor(List.of("dt"), null, null).extract(List.of("unknown")))
        .isNull();
  }
}
