package io.basalt.spark;

import io.basalt.spark.systables.SystemTables;
import io.basalt.table.FileStoreTable;
import javax.annotation.Nullable;
import org.apache.spark.sql.connector.catalog.Identifier;

/**
 * A table name as Paimon spells it: {@code t}, {@code t$branch_<b>} (branch b), {@code t$<system>}
 * (a system table of main) or {@code t$branch_<b>$<system>} (a system table of branch b).
 *
 * @param base the table itself
 * @param branch the branch, or null for main
 * @param systemTable the system table, or null for the data
 */
record TableName(Identifier base, @Nullable String branch, @Nullable String systemTable) {
  private static final String BRANCH_PREFIX = FileStoreTable.BRANCH_MARKER.substring(1);

  /**
   * Splits {@code ident}'s name at the first {@code $}.
   *
   * @param exists whether a table with {@code ident}'s whole name exists; then it is taken as is
   */
  static TableName parse(Identifier ident, boolean exists) {
    String name = ident.name();
    int separator = name.indexOf(SystemTables.SEPARATOR);
    if (exists || separator <= 0) {
      return new TableName(ident, null, null);
    }
    Identifier base = Identifier.of(ident.namespace(), name.substring(0, separator));
    String rest = name.substring(separator + 1);
    if (!rest.startsWith(BRANCH_PREFIX)) {
      return new TableName(base, null, rest);
    }
    String branchAndSystem = rest.substring(BRANCH_PREFIX.length());
    int next = branchAndSystem.indexOf(SystemTables.SEPARATOR);
    return next < 0
        ? new TableName(base, branchAndSystem, null)
        : new TableName(
            base, branchAndSystem.substring(0, next), branchAndSystem.substring(next + 1));
  }

  /** The data table this name's system table belongs to: {@code t} or {@code t$branch_<b>}. */
  Identifier dataTable() {
    return branch == null
        ? base
        : Identifier.of(base.namespace(), base.name() + FileStoreTable.BRANCH_MARKER + branch);
  }
}
