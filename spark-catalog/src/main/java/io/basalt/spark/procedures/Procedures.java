package io.basalt.spark.procedures;

import io.basalt.spark.SparkCatalog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
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
          Map.entry(RescaleProcedure.NAME, RescaleProcedure::new));

  private Procedures() {}

  /** Every procedure name, sorted. */
  public static List<String> names() {
    List<String> names = new ArrayList<>(BY_NAME.keySet());
    Collections.sort(names);
    return names;
  }

  /** The procedure called {@code name} (any case), or null. */
  @Nullable
  public static UnboundProcedure load(SparkCatalog catalog, String name) {
    Function<SparkCatalog, UnboundProcedure> factory = BY_NAME.get(name.toLowerCase(Locale.ROOT));
    return factory == null ? null : factory.apply(catalog);
  }
}
