package io.basalt.options;

/**
 * Options of changelog production: which changes a primary-key table records in {@code changelog-*}
 * files for streaming and incremental readers. Keys and values follow Paimon.
 */
public final class ChangelogOptions {
  private ChangelogOptions() {}

  public static final String NONE = "none";
  public static final String INPUT = "input";
  public static final String LOOKUP = "lookup";
  public static final String FULL_COMPACTION = "full-compaction";

  public static final ConfigOption<String> CHANGELOG_PRODUCER =
      ConfigOption.key("changelog-producer")
          .enumType(NONE, INPUT, LOOKUP, FULL_COMPACTION)
          .defaultValue(NONE)
          .description(
              "Which changelog a primary-key table writes for incremental and streaming readers:"
                  + " 'none' writes none; 'input' writes the rows as written, with their row"
                  + " kinds, as changelog files at each commit; 'lookup' looks up each written key's"
                  + " previous merged row when level 0 moves up (at each commit, or at CALL"
                  + " sys.compact with 'write-only') and writes the exact change (+I, -U/+U, -D);"
                  + " 'full-compaction' writes, at each full compaction, the difference between the"
                  + " top level before and after it (see 'full-compaction.delta-commits').");

  public static final ConfigOption<Boolean> ROW_DEDUPLICATE =
      ConfigOption.key("changelog-producer.row-deduplicate")
          .booleanType()
          .defaultValue(false)
          .description(
              "Whether a producer that compares before and after images ('lookup',"
                  + " 'full-compaction') drops -U/+U pairs whose values are equal.");

  public static final ConfigOption<String> ROW_DEDUPLICATE_IGNORE_FIELDS =
      ConfigOption.key("changelog-producer.row-deduplicate-ignore-fields")
          .stringType()
          .description(
              "Comma-separated columns that 'changelog-producer.row-deduplicate' leaves out when it"
                  + " compares the before and after images of a key.");
}
