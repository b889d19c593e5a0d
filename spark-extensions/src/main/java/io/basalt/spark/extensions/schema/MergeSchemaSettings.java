package io.basalt.spark.extensions.schema;

import io.basalt.options.ConfigOption;
import io.basalt.options.MergeSchemaOptions;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The three merge-schema switches of one write, resolved with the usual precedence (highest first):
 * the write option ({@code mergeSchema} is an alias of {@code write.merge-schema}), the session
 * conf {@code spark.paimon.<key>}, the table option, the default.
 */
record MergeSchemaSettings(boolean enabled, boolean typeWidening, boolean explicitCast) {
  private static final String SESSION_PREFIX = "spark.paimon.";

  static MergeSchemaSettings of(
      SparkSession session, Map<String, String> writeOptions, Map<String, String> tableOptions) {
    return new MergeSchemaSettings(
        flag(session, MergeSchemaOptions.MERGE_SCHEMA, writeOptions, tableOptions),
        flag(session, MergeSchemaOptions.TYPE_WIDENING, writeOptions, tableOptions),
        flag(session, MergeSchemaOptions.EXPLICIT_CAST, writeOptions, tableOptions));
  }

  /** Whether the write options or the session ask for merge-schema, before the table is known. */
  static boolean requested(SparkSession session, Map<String, String> writeOptions) {
    String value = writeValue(MergeSchemaOptions.MERGE_SCHEMA, writeOptions);
    if (value == null) {
      value = session.conf().get(SESSION_PREFIX + MergeSchemaOptions.MERGE_SCHEMA.key(), null);
    }
    return Boolean.parseBoolean(value);
  }

  private static boolean flag(
      SparkSession session,
      ConfigOption<Boolean> option,
      Map<String, String> writeOptions,
      Map<String, String> tableOptions) {
    String value = writeValue(option, writeOptions);
    if (value == null) {
      value = session.conf().get(SESSION_PREFIX + option.key(), null);
    }
    if (value == null) {
      value = tableOptions.get(option.key());
    }
    return value == null ? option.defaultValue() : Boolean.parseBoolean(value.trim());
  }

  private static String writeValue(ConfigOption<Boolean> option, Map<String, String> options) {
    for (Map.Entry<String, String> entry : options.entrySet()) {
      String key = entry.getKey();
      if (key.equalsIgnoreCase(option.key())
          || (option == MergeSchemaOptions.MERGE_SCHEMA
              && key.equalsIgnoreCase(MergeSchemaOptions.MERGE_SCHEMA_ALIAS))) {
        return entry.getValue().trim();
      }
    }
    return null;
  }
}
