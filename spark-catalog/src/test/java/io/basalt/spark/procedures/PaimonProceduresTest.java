package io.basalt.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.BasaltException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * Every procedure Paimon's Spark connector registers ({@code SparkProcedures}) is either run by
 * Basalt or refused with what to use instead, and docs/procedures.md lists it.
 */
class PaimonProceduresTest {
  /** The names {@code org.apache.paimon.spark.SparkProcedures} registers. */
  private static final List<String> PAIMON =
      List.of(
          "rollback",
          "rollback_to_timestamp",
          "rollback_to_watermark",
          "purge_files",
          "create_tag",
          "replace_tag",
          "rename_tag",
          "create_tag_from_timestamp",
          "delete_tag",
          "expire_tags",
          "create_branch",
          "create_global_index",
          "drop_global_index",
          "delete_branch",
          "rename_branch",
          "compact",
          "materialize_deletion_vectors",
          "compact_database",
          "compact_chain_table",
          "rescale",
          "migrate_database",
          "migrate_table",
          "remove_orphan_files",
          "remove_unexisting_files",
          "expire_snapshots",
          "expire_partitions",
          "repair",
          "repair_earliest_snapshot",
          "fast_forward",
          "merge_branch",
          "reset_consumer",
          "mark_partition_done",
          "compact_manifest",
          "clear_consumers",
          "alter_view_dialect",
          "create_function",
          "alter_function",
          "drop_function",
          "trigger_tag_automatic_creation",
          "rewrite_file_index",
          "copy",
          "reassign_row_id");

  private static final Path DOC = Paths.get("..", "docs", "procedures.md");

  @Test
  void everyPaimonProcedureIsRunOrRefused() {
    List<String> handled = new ArrayList<>(Procedures.names());
    handled.addAll(Procedures.refusedNames());
    assertThat(handled).containsAll(PAIMON).doesNotHaveDuplicates();
    assertThat(Procedures.names()).doesNotContainAnyElementsOf(Procedures.refusedNames());
  }

  @Test
  void docsListEveryProcedure() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    for (String name : Procedures.names()) {
      assertThat(doc).as(name).contains("## sys." + name);
    }
    String refused = doc.substring(doc.indexOf("## Paimon procedures Basalt refuses"));
    for (String name : Procedures.refusedNames()) {
      assertThat(refused).as(name).contains("`" + name + "`");
    }
  }

  @Test
  void refusedProcedureFailsWhenBoundSayingWhatToUse() {
    UnboundProcedure procedure = Procedures.load(null, "Materialize_Deletion_Vectors");
    assertThat(procedure.name()).isEqualTo("materialize_deletion_vectors");
    assertThatThrownBy(() -> procedure.bind(new StructType()))
        .isInstanceOf(BasaltException.class)
        .hasMessage(
            "sys.materialize_deletion_vectors is not supported by Basalt: it applies only to"
                + " data-evolution tables with deletion vectors, and Basalt refuses deletion"
                + " vectors on data-evolution tables. Use instead: sys.compact(table => ..., compact_strategy => 'full'),"
                + " which rewrites files without the rows their deletion vectors delete. (docs/"
                + "procedures.md lists every procedure of Paimon's Spark connector and what Basalt"
                + " does with it.)");
    assertThat(Procedures.load(null, "no_such_procedure")).isNull();
  }
}
