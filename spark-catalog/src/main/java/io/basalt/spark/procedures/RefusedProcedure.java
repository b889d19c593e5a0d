package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import java.util.List;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.types.StructType;

/**
 * A procedure of Paimon's Spark connector that Basalt does not run. {@code CALL} finds it, so the
 * user gets why and what to use instead rather than Spark's "procedure not found"; binding fails
 * with that message, before any argument is looked at.
 */
final class RefusedProcedure implements UnboundProcedure {
  /**
   * One refused procedure: its name, why Basalt does not run it and what to use instead.
   *
   * @param reason completes "sys.&lt;name&gt; is not supported by Basalt: ..."
   * @param instead completes "Use instead: ..."
   */
  record Refusal(String name, String reason, String instead) {}

  /** Every refused procedure of Paimon's connector, by name (docs/procedures.md lists them). */
  static final List<Refusal> ALL =
      List.of(
          new Refusal(
              "rollback_to_watermark",
              "Basalt's Spark writes record no watermarks to roll back to",
              "sys.rollback(table => ..., snapshot => <id>) with a snapshot id chosen from"
                  + " t$snapshots (its watermark column)"),
          new Refusal(
              "purge_files",
              "it deletes every data file of the table outside any snapshot",
              "TRUNCATE TABLE t (an OVERWRITE snapshot), then sys.expire_snapshots and"
                  + " sys.remove_orphan_files to delete the files"),
          new Refusal(
              "create_global_index",
              "Basalt has no global indexes",
              "data skipping by the min/max statistics Basalt keeps per file (no index needed)"),
          new Refusal(
              "drop_global_index",
              "Basalt has no global indexes",
              "nothing: a Basalt table has no global index to drop"),
          new Refusal(
              "materialize_deletion_vectors",
              "it applies only to data-evolution tables with deletion vectors, and Basalt refuses"
                  + " deletion vectors on data-evolution tables",
              "sys.compact(table => ..., compact_strategy => 'full'), which rewrites files without"
                  + " the rows their deletion vectors delete"),
          new Refusal(
              "compact_database",
              "it compacts many tables in one job",
              "sys.compact(table => ...) for each table (SHOW TABLES IN db lists them)"),
          new Refusal(
              "compact_chain_table",
              "Basalt has no chain tables",
              "sys.compact(table => ...) on an ordinary table"),
          new Refusal(
              "migrate_database",
              "it converts Hive tables in place, and Basalt has no Hive metastore catalog",
              "CREATE TABLE ... AS SELECT from each Hive table"),
          new Refusal(
              "migrate_table",
              "it converts a Hive table in place, and Basalt has no Hive metastore catalog",
              "CREATE TABLE ... AS SELECT from the Hive table"),
          new Refusal(
              "remove_unexisting_files",
              "it rewrites manifests to forget data files that were lost",
              "the read option 'scan.ignore-lost-files' = 'true' to read past lost files, or"
                  + " sys.rollback to a snapshot from before the loss"),
          new Refusal(
              "repair",
              "it synchronizes a Hive metastore, and Basalt's catalog is the warehouse directory",
              "nothing: the warehouse directory is the catalog, there is nothing to synchronize"),
          new Refusal(
              "repair_earliest_snapshot",
              "it rewrites the EARLIEST hint file by hand",
              "nothing: Basalt finds the earliest snapshot by listing when the hint is stale"),
          new Refusal(
              "merge_branch",
              "it merges a branch's files into another branch",
              "sys.fast_forward(table => ..., branch => ...) to make a branch's history the main"
                  + " branch's"),
          new Refusal(
              "mark_partition_done",
              "it writes done marks that Basalt does not keep ('partition.mark-done-action')",
              "a tag per finished partition with sys.create_tag"),
          new Refusal(
              "compact_manifest",
              "it rewrites the manifests of the latest snapshot",
              "nothing: every commit merges small manifests ('manifest.merge-min-count')"),
          new Refusal(
              "alter_view_dialect",
              "Basalt's catalog has no views",
              "Spark's views in the session catalog (CREATE VIEW spark_catalog.db.v AS ...)"),
          new Refusal(
              "create_function",
              "Basalt's catalog has no functions",
              "Spark's CREATE FUNCTION in the session catalog"),
          new Refusal(
              "alter_function",
              "Basalt's catalog has no functions",
              "Spark's CREATE OR REPLACE FUNCTION in the session catalog"),
          new Refusal(
              "drop_function",
              "Basalt's catalog has no functions",
              "Spark's DROP FUNCTION in the session catalog"),
          new Refusal(
              "trigger_tag_automatic_creation",
              "Basalt creates automatic tags after each commit, not on demand",
              "sys.create_tag(table => ..., tag => ...) to tag the latest snapshot now"),
          new Refusal(
              "rewrite_file_index",
              "Basalt writes no file indexes ('file-index.*')",
              "nothing: Basalt skips files by their min/max statistics"),
          new Refusal(
              "copy",
              "it copies a table's files to another table",
              "CREATE TABLE target AS SELECT * FROM source (or INSERT INTO target SELECT ...)"),
          new Refusal(
              "reassign_row_id",
              "it renumbers the row ids of a data-evolution table whose partitions' row-id ranges"
                  + " overlap, to make them contiguous per partition",
              "nothing: Basalt assigns row ids at commit and has no renumbering"));

  private final Refusal refusal;

  RefusedProcedure(Refusal refusal) {
    this.refusal = refusal;
  }

  @Override
  public String name() {
    return refusal.name();
  }

  @Override
  public String description() {
    return "Not supported by Basalt: " + refusal.reason();
  }

  @Override
  public BoundProcedure bind(StructType inputType) {
    throw new BasaltException(
        String.format(
            "sys.%s is not supported by Basalt: %s. Use instead: %s. (docs/procedures.md lists"
                + " every procedure of Paimon's Spark connector and what Basalt does with it.)",
            refusal.name(), refusal.reason(), refusal.instead()));
  }
}
