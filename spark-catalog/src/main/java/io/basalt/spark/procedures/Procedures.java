package io.basalt.spark.procedures;

import io.basalt.spark.SparkCatalog;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;

/** The procedures of the {@code sys} namespace, by name. */
public final class Procedures {
  private Procedures() {}

  public static List<String> names() {
    return List.of(
        CompactProcedure.NAME,
        CreateBranchProcedure.NAME,
        CreateTagProcedure.NAME,
        DeleteBranchProcedure.NAME,
        DeleteTagProcedure.NAME,
        ExpireSnapshotsProcedure.NAME,
        FastForwardProcedure.NAME,
        RenameTagProcedure.NAME,
        RollbackProcedure.NAME,
        RollbackToTimestampProcedure.NAME);
  }

  /** The procedure called {@code name}, or null. */
  @Nullable
  public static UnboundProcedure load(SparkCatalog catalog, String name) {
    if (ExpireSnapshotsProcedure.NAME.equalsIgnoreCase(name)) {
      return new ExpireSnapshotsProcedure(catalog);
    }
    if (CompactProcedure.NAME.equalsIgnoreCase(name)) {
      return new CompactProcedure(catalog);
    }
    if (CreateTagProcedure.NAME.equalsIgnoreCase(name)) {
      return new CreateTagProcedure(catalog);
    }
    if (DeleteTagProcedure.NAME.equalsIgnoreCase(name)) {
      return new DeleteTagProcedure(catalog);
    }
    if (RenameTagProcedure.NAME.equalsIgnoreCase(name)) {
      return new RenameTagProcedure(catalog);
    }
    return loadHistoryProcedure(catalog, name);
  }

  /** Rollback and branch procedures. */
  @Nullable
  private static UnboundProcedure loadHistoryProcedure(SparkCatalog catalog, String name) {
    if (RollbackProcedure.NAME.equalsIgnoreCase(name)) {
      return new RollbackProcedure(catalog);
    }
    if (RollbackToTimestampProcedure.NAME.equalsIgnoreCase(name)) {
      return new RollbackToTimestampProcedure(catalog);
    }
    if (CreateBranchProcedure.NAME.equalsIgnoreCase(name)) {
      return new CreateBranchProcedure(catalog);
    }
    if (DeleteBranchProcedure.NAME.equalsIgnoreCase(name)) {
      return new DeleteBranchProcedure(catalog);
    }
    if (FastForwardProcedure.NAME.equalsIgnoreCase(name)) {
      return new FastForwardProcedure(catalog);
    }
    return null;
  }
}
