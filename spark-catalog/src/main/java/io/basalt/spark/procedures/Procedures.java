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
        CreateTagProcedure.NAME,
        DeleteTagProcedure.NAME,
        ExpirePartitionsProcedure.NAME,
        ExpireSnapshotsProcedure.NAME,
        RemoveOrphanFilesProcedure.NAME,
        RenameTagProcedure.NAME);
  }

  /** The procedure called {@code name}, or null. */
  @Nullable
  public static UnboundProcedure load(SparkCatalog catalog, String name) {
    if (ExpireSnapshotsProcedure.NAME.equalsIgnoreCase(name)) {
      return new ExpireSnapshotsProcedure(catalog);
    }
    if (ExpirePartitionsProcedure.NAME.equalsIgnoreCase(name)) {
      return new ExpirePartitionsProcedure(catalog);
    }
    if (RemoveOrphanFilesProcedure.NAME.equalsIgnoreCase(name)) {
      return new RemoveOrphanFilesProcedure(catalog);
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
    return null;
  }
}
