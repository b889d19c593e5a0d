package io.basalt.spark.procedures;

import io.basalt.spark.SparkCatalog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;

/** The procedures of the {@code sys} namespace, by name. */
public final class Procedures {
  private static final Map<String, Function<SparkCatalog, UnboundProcedure>> BY_NAME =
      Map.ofEntries(
          Map.entry(CompactProcedure.NAME, CompactProcedure::new),
          Map.entry(ExpireSnapshotsProcedure.NAME, ExpireSnapshotsProcedure::new),
          Map.entry(CreateTagProcedure.NAME, CreateTagProcedure::new),
          Map.entry(ReplaceTagProcedure.NAME, ReplaceTagProcedure::new),
          Map.entry(CreateTagFromTimestampProcedure.NAME, CreateTagFromTimestampProcedure::new),
          Map.entry(DeleteTagProcedure.NAME, DeleteTagProcedure::new),
          Map.entry(RenameTagProcedure.NAME, RenameTagProcedure::new),
          Map.entry(ExpireTagsProcedure.NAME, ExpireTagsProcedure::new),
          Map.entry(RollbackProcedure.NAME, RollbackProcedure::new),
          Map.entry(RollbackToTimestampProcedure.NAME, RollbackToTimestampProcedure::new),
          Map.entry(CreateBranchProcedure.NAME, CreateBranchProcedure::new),
          Map.entry(DeleteBranchProcedure.NAME, DeleteBranchProcedure::new),
          Map.entry(FastForwardProcedure.NAME, FastForwardProcedure::new),
          Map.entry(RemoveOrphanFilesProcedure.NAME, RemoveOrphanFilesProcedure::new),
          Map.entry(ExpirePartitionsProcedure.NAME, ExpirePartitionsProcedure::new),
          Map.entry(RescaleProcedure.NAME, RescaleProcedure::new),
          Map.entry(RenameBranchProcedure.NAME, RenameBranchProcedure::new),
          Map.entry(ResetConsumerProcedure.NAME, ResetConsumerProcedure::new),
          Map.entry(ClearConsumersProcedure.NAME, ClearConsumersProcedure::new));

  /** Paimon's procedures Basalt refuses, each with what to use instead. */
  private static final Map<String, RefusedProcedure.Refusal> REFUSED =
      RefusedProcedure.ALL.stream()
          .collect(Collectors.toMap(RefusedProcedure.Refusal::name, Function.identity()));

  private Procedures() {}

  /** Every procedure Basalt runs, by name, sorted (not the refused ones). */
  public static List<String> names() {
    List<String> names = new ArrayList<>(BY_NAME.keySet());
    Collections.sort(names);
    return names;
  }

  /** The names of Paimon's procedures that Basalt refuses, sorted. */
  public static List<String> refusedNames() {
    List<String> names = new ArrayList<>(REFUSED.keySet());
    Collections.sort(names);
    return names;
  }

  /**
   * The procedure called {@code name} (any case): one Basalt runs, one of Paimon's it refuses
   * (which fails when bound, saying what to use instead), or null.
   */
  @Nullable
  public static UnboundProcedure load(SparkCatalog catalog, String name) {
    String key = name.toLowerCase(Locale.ROOT);
    Function<SparkCatalog, UnboundProcedure> factory = BY_NAME.get(key);
    if (factory != null) {
      return factory.apply(catalog);
    }
    RefusedProcedure.Refusal refusal = REFUSED.get(key);
    return refusal == null ? null : new RefusedProcedure(refusal);
  }
}
