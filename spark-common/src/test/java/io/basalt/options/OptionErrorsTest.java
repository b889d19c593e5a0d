package io.basalt.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltErrorClass;
import io.basalt.BasaltException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Invalid option values carry their stable error class and parameters next to the message. */
class OptionErrorsTest {

  private static BasaltException thrown(Runnable action) {
    try {
      action.run();
    } catch (BasaltException e) {
      return e;
    }
    throw new AssertionError("expected a BasaltException");
  }

  @Test
  void unparsableValueIsAnInvalidOption() {
    Options options =
        new Options(
            Map.of(CompactionOptions.NUM_SORTED_RUNS_COMPACTION_TRIGGER.key(), "five"),
            "table db.t");
    BasaltException e =
        thrown(() -> options.get(CompactionOptions.NUM_SORTED_RUNS_COMPACTION_TRIGGER));
    assertThat(e.errorClass()).isEqualTo(BasaltErrorClass.BASALT_INVALID_OPTION);
    assertThat(e.getCondition()).isEqualTo("BASALT_INVALID_OPTION");
    assertThat(e.getSqlState()).isEqualTo("22023");
    assertThat(e.getMessageParameters())
        .isEqualTo(
            Map.of(
                "option", "num-sorted-run.compaction-trigger",
                "value", "five",
                "owner", "table db.t"));
    assertThat(e)
        .hasMessageStartingWith(
            "Invalid value 'five' for option 'num-sorted-run.compaction-trigger' on table db.t");
  }

  @Test
  void outOfRangeValueIsAnInvalidOption() {
    Options options =
        new Options(Map.of(CompactionOptions.NUM_SORTED_RUNS_COMPACTION_TRIGGER.key(), "0"), "t");
    BasaltException e = thrown(() -> CompactionSettings.of(options));
    assertThat(e.getCondition()).isEqualTo("BASALT_INVALID_OPTION");
    assertThat(e.getMessageParameters())
        .containsEntry("option", "num-sorted-run.compaction-trigger")
        .containsEntry("value", "0");
    assertThat(e).hasMessageContaining("expected a positive integer");
  }

  @Test
  void procedureArgumentsAreInvalidInputAndOptionLabelsInvalidOptions() {
    BasaltException argument =
        thrown(() -> PartitionExpiration.checkMaxExpires(0, "argument 'max_expires'", "table t"));
    assertThat(argument.getCondition()).isEqualTo("BASALT_INVALID_INPUT");
    assertThat(argument.getMessageParameters())
        .isEqualTo(Map.of("input", "argument 'max_expires'", "value", "0", "owner", "table t"));
    assertThat(argument)
        .hasMessage(
            "Invalid value '0' for argument 'max_expires' on table t:"
                + " expected an integer >= 1.");

    BasaltException option =
        thrown(
            () ->
                PartitionExpiration.checkPattern(
                    "$nope", List.of("dt"), "option 'partition.timestamp-pattern'", "table t"));
    assertThat(option.getCondition()).isEqualTo("BASALT_INVALID_OPTION");
    assertThat(option.getMessageParameters())
        .isEqualTo(
            Map.of("option", "partition.timestamp-pattern", "value", "$nope", "owner", "table t"));
    assertThat(option).hasMessageContaining("'$nope' is no partition column");
  }

  @Test
  void errorsWithoutAClassGetTheDefaultAndParametersAreACopy() {
    BasaltException e = new BasaltException("boom");
    assertThat(e.getCondition()).isEqualTo("BASALT_ERROR");
    assertThat(e.getSqlState()).isEqualTo("XX000");
    assertThat(e.getMessageParameters()).isEmpty();
    e.getMessageParameters().put("x", "y");
    assertThat(e.getMessageParameters()).isEmpty();
    // a cause may still be attached later, as readers of truncated files do
    java.io.EOFException eof = new java.io.EOFException("end");
    assertThat(new BasaltException("later").initCause(eof).getCause()).isSameAs(eof);
    assertThatThrownBy(() -> new BasaltException(null, Map.of(), "m", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("errorClass");
  }
}
