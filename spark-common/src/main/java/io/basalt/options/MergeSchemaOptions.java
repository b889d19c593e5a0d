package io.basalt.options;

/**
 * Schema evolution on write, with the keys of Paimon's Spark connector: a write whose data has
 * columns or struct fields the table lacks adds them before the data is committed.
 */
public final class MergeSchemaOptions {
  private MergeSchemaOptions() {}

  /**
   * The DataFrame option name Spark users know from Delta and Iceberg; same as {@link
   * #MERGE_SCHEMA}.
   */
  public static final String MERGE_SCHEMA_ALIAS = "mergeSchema";

  public static final ConfigOption<Boolean> MERGE_SCHEMA =
      ConfigOption.key("write.merge-schema")
          .booleanType()
          .defaultValue(false)
          .description(
              "A write (INSERT, DataFrame append or overwrite, MERGE INTO) whose data has"
                  + " columns or struct fields the table lacks adds them to the table (nullable,"
                  + " at the end) before it writes; columns the data lacks are written as NULL."
                  + " Set as a table option, a write option (also 'mergeSchema') or the session"
                  + " conf 'spark.paimon.write.merge-schema'; MERGE INTO reads the session conf.");

  public static final ConfigOption<Boolean> TYPE_WIDENING =
      ConfigOption.key("write.merge-schema.type-widening")
          .booleanType()
          .defaultValue(false)
          .description(
              "With 'write.merge-schema': a column whose data has a wider type (INT data for a"
                  + " SMALLINT column, BIGINT for INT, DOUBLE for FLOAT, a DECIMAL of larger"
                  + " precision and the same scale) is widened to that type. Off, the column keeps"
                  + " its type and the values are cast to it on write.");

  public static final ConfigOption<Boolean> EXPLICIT_CAST =
      ConfigOption.key("write.merge-schema.explicit-cast")
          .booleanType()
          .defaultValue(false)
          .description(
              "With 'write.merge-schema': data whose type Spark's store assignment refuses for a"
                  + " column (STRING data for an INT column) is cast to the column's type with"
                  + " CAST; a value that does not convert fails the write. Off, such a write"
                  + " fails before anything is written.");

  /** The keys above; a CREATE TABLE AS SELECT keeps them as write options, not table options. */
  public static final java.util.Set<String> KEYS =
      java.util.Set.of(MERGE_SCHEMA.key(), TYPE_WIDENING.key(), EXPLICIT_CAST.key());
}
