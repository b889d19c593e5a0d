package io.basalt.schema;

import io.basalt.BasaltException;
import io.basalt.changelog.ChangelogProducerGuard;
import io.basalt.changelog.RowDeduplicate;
import io.basalt.data.ValueComparators;
import io.basalt.merge.MergeEngine;
import io.basalt.merge.MergeEngineRules;
import io.basalt.options.ChangelogRetention;
import io.basalt.options.CompactionSettings;
import io.basalt.options.Options;
import io.basalt.options.PartitionExpiration;
import io.basalt.options.SnapshotRetention;
import io.basalt.options.TableOptions;
import io.basalt.tag.TagSettings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks a table schema before it is written: keys exist and can be keys, bucket settings are
 * consistent, options parse. Each failure names the table, the option or column, the value, and the
 * fix.
 */
public final class SchemaValidation {
  private SchemaValidation() {}

  public static void validate(TableSchema schema, String table) {
    Options options = new Options(schema.options(), "table " + table);
    for (String key : schema.primaryKeys()) {
      if (schema.field(key) == null) {
        throw new BasaltException(
            String.format(
                "Primary-key column '%s' (option '%s') does not exist in table %s; its columns are"
                    + " %s. Fix: name existing columns in '%s'.",
                key,
                TableOptions.PRIMARY_KEY.key(),
                table,
                columnNames(schema),
                TableOptions.PRIMARY_KEY.key()));
      }
      if (!ValueComparators.isOrderable(schema.field(key).type())) {
        throw new BasaltException(
            String.format(
                "Column '%s' of table %s has type %s, which cannot be part of a primary key.",
                key, table, schema.field(key).type().simpleString()));
      }
    }
    for (String key : schema.partitionKeys()) {
      if (schema.field(key) == null) {
        throw new BasaltException(
            String.format("Partition column '%s' does not exist in table %s", key, table));
      }
    }
    validateMergeEngine(schema, options, table);
    options.get(TableOptions.FILE_FORMAT);
    options.get(TableOptions.FILE_COMPRESSION);
    validateBuckets(schema, options, table);
    CompactionSettings.of(options);
    sequenceFields(schema, options, table);
    options.get(TableOptions.SEQUENCE_FIELD_SORT_ORDER);
    TagSettings.of(options);
    ChangelogRetention.of(options, SnapshotRetention.of(options));
    PartitionExpiration.of(options, schema.partitionKeys());
    ChangelogProducerGuard.checkDefinition(schema, options, table);
    RowDeduplicate.of(schema, options, table);
    RowTrackingValidation.validate(schema, options, table);
    BlobFieldValidation.validate(schema, options, table);
  }

  /**
   * The columns of option {@code sequence.field}, checked: they exist, can be ordered, and the
   * table has a primary key.
   *
   * @throws BasaltException naming the column and the option otherwise
   */
  public static List<String> sequenceFields(TableSchema schema, Options options, String table) {
    List<String> fields = new ArrayList<>();
    String configured = options.getOptional(TableOptions.SEQUENCE_FIELD).orElse("");
    for (String raw : configured.split(",")) {
      String name = raw.trim();
      if (name.isEmpty()) {
        continue;
      }
      DataField field = schema.field(name);
      if (field == null) {
        throw new BasaltException(
            String.format(
                "Column '%s' named in option '%s' does not exist in table %s; its columns are %s."
                    + " Fix: name existing columns in '%s'.",
                name,
                TableOptions.SEQUENCE_FIELD.key(),
                table,
                columnNames(schema),
                TableOptions.SEQUENCE_FIELD.key()));
      }
      if (!ValueComparators.isOrderable(field.type())) {
        throw new BasaltException(
            String.format(
                "Column '%s' of table %s has type %s, which cannot be a '%s': use a numeric,"
                    + " string, date or timestamp column.",
                name, table, field.type().simpleString(), TableOptions.SEQUENCE_FIELD.key()));
      }
      fields.add(name);
    }
    if (!fields.isEmpty() && !schema.hasPrimaryKey()) {
      throw new BasaltException(
          String.format(
              "Option '%s' needs a primary-key table; %s has no primary key.",
              TableOptions.SEQUENCE_FIELD.key(), table));
    }
    return fields;
  }

  /** Primary-key tables: the merge engine and its options; append tables have none. */
  private static void validateMergeEngine(TableSchema schema, Options options, String table) {
    if (schema.hasPrimaryKey()) {
      MergeEngine.of(schema, options, table);
      return;
    }
    MergeEngineRules engine = MergeEngineRules.of(options);
    if (engine.mergesVersions()) {
      throw new BasaltException(
          String.format(
              "Option '%s' = '%s' on table %s needs a primary key; %s is an append table, whose"
                  + " rows never merge. Fix: remove the option or declare a 'primary-key'.",
              TableOptions.MERGE_ENGINE.key(), engine.name(), table, table));
    }
  }

  private static void validateBuckets(TableSchema schema, Options options, String table) {
    int bucket = options.get(TableOptions.BUCKET);
    String bucketKey = TableOptions.BUCKET.key();
    if (bucket == 0 || bucket < -2) {
      throw new BasaltException(
          String.format(
              "Invalid value '%s' for option '%s' on table %s: expected a number of buckets >= 1,"
                  + " -1 (dynamic buckets; bucket-unaware on an append table) or -2 (postponed"
                  + " buckets, primary-key tables). Fix: set '%s' = N.",
              bucket, bucketKey, table, bucketKey));
    }
    DynamicBucketValidation.validate(schema, options, table, bucket);
    if (bucket == -2 && !schema.hasPrimaryKey()) {
      throw new BasaltException(
          String.format(
              "Option '%s' = '-2' (postponed buckets) on table %s needs a primary key; %s is an"
                  + " append table. Fix: declare a 'primary-key', or set '%s' = -1 (bucket-unaware)"
                  + " or N >= 1.",
              bucketKey, table, table, bucketKey));
    }
    if (schema.hasPrimaryKey()) {
      CrossPartitionValidation.validate(schema, options, table, bucket);
    }
    options
        .getOptional(TableOptions.BUCKET_KEY)
        .ifPresent(keys -> validateBucketKey(schema, keys, table));
    if (!schema.hasPrimaryKey() && bucket > 0 && !options.contains(TableOptions.BUCKET_KEY)) {
      throw new BasaltException(
          String.format(
              "Append table %s has '%s' = %s but no '%s'. Fix: set '%s' to the columns to hash,"
                  + " or '%s' = -1.",
              table,
              bucketKey,
              bucket,
              TableOptions.BUCKET_KEY.key(),
              TableOptions.BUCKET_KEY.key(),
              bucketKey));
    }
  }

  private static void validateBucketKey(TableSchema schema, String keys, String table) {
    Set<String> trimmed = new HashSet<>(schema.trimmedPrimaryKeys());
    for (String raw : keys.split(",")) {
      String key = raw.trim();
      if (schema.field(key) == null) {
        throw new BasaltException(
            String.format(
                "Bucket-key column '%s' (option '%s') does not exist in table %s; its columns are"
                    + " %s.",
                key, TableOptions.BUCKET_KEY.key(), table, columnNames(schema)));
      }
      if (schema.hasPrimaryKey() && !trimmed.contains(key)) {
        throw new BasaltException(
            String.format(
                "Bucket-key column '%s' of table %s must be a primary-key column that is not a"
                    + " partition column (%s), or a row could move between buckets.",
                key, table, String.join(", ", schema.trimmedPrimaryKeys())));
      }
    }
  }

  private static String columnNames(TableSchema schema) {
    List<String> names = new ArrayList<>();
    for (DataField field : schema.fields()) {
      names.add(field.name());
    }
    return String.join(", ", names);
  }
}
