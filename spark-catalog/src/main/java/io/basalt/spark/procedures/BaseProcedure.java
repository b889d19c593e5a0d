package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalog.Catalog;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The shared parts of a {@code sys} procedure: it binds to itself whatever the input types (Spark
 * has already checked them against {@link #parameters()}), is not deterministic, resolves its
 * {@code table} argument against the catalog and returns one row of its output schema.
 */
abstract class BaseProcedure implements UnboundProcedure, BoundProcedure {
  /** The output of procedures that report only success: one row {@code result = true}. */
  static final StructType RESULT =
      new StructType(
          new StructField[] {DataTypes.createStructField("result", DataTypes.BooleanType, false)});

  /** The output of the rollback procedures, as Paimon's: where the table was and now is. */
  static final StructType ROLLBACK_RESULT =
      new StructType(
          new StructField[] {
            DataTypes.createStructField("previous_snapshot_id", DataTypes.LongType, false),
            DataTypes.createStructField("current_snapshot_id", DataTypes.LongType, false)
          });

  private final SparkCatalog catalog;
  private final String name;
  private final String description;
  private final ProcedureParameter[] parameters;
  private final StructType output;

  BaseProcedure(
      SparkCatalog catalog,
      String name,
      String description,
      ProcedureParameter[] parameters,
      StructType output) {
    this.catalog = catalog;
    this.name = name;
    this.description = description;
    this.parameters = parameters;
    this.output = output;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String description() {
    return description;
  }

  @Override
  public final BoundProcedure bind(StructType inputType) {
    return this;
  }

  @Override
  public final ProcedureParameter[] parameters() {
    return parameters;
  }

  @Override
  public final boolean isDeterministic() {
    return false;
  }

  /**
   * The table {@code table} names: {@code 'db.t'}, or {@code 't'} in the session's current database
   * when this catalog is the current one (its default database otherwise), as Paimon resolves
   * procedure arguments; of a longer name only the last two parts count.
   *
   * @throws BasaltException naming this procedure and the table if there is no such table
   */
  final FileStoreTable loadTable(String table) {
    String[] parts = table.split("\\.");
    Identifier ident =
        parts.length == 1
            ? Identifier.of(currentNamespace(), parts[0])
            : Identifier.of(new String[] {parts[parts.length - 2]}, parts[parts.length - 1]);
    try {
      return catalog.loadFileStoreTable(ident);
    } catch (NoSuchTableException e) {
      String where = parts.length == 1 ? " (current database " + ident.namespace()[0] + ")" : "";
      throw new BasaltException(
          String.format(
              "%s: table %s%s does not exist. Fix: pass an existing table as 'db.table', or"
                  + " 'table' for the current database.",
              name, table, where),
          e);
    }
  }

  /** The session's current database if this catalog is the current one, else the default. */
  private String[] currentNamespace() {
    Catalog session = SparkSession.active().catalog();
    if (!catalog.name().equals(session.currentCatalog())) {
      return catalog.defaultNamespace();
    }
    String database = session.currentDatabase();
    if (database.length() > 1 && database.startsWith("`") && database.endsWith("`")) {
      // quoted because the name holds a dot or a back-quote; databases have one level here
      database = database.substring(1, database.length() - 1).replace("``", "`");
    }
    return new String[] {database};
  }

  /** The result of a call: one row of the output schema holding {@code values}. */
  final Iterator<Scan> result(Object... values) {
    InternalRow row = new GenericInternalRow(values);
    return Collections.<Scan>singletonList(new Result(row, output)).iterator();
  }

  /** The {@link #ROLLBACK_RESULT} row of a rollback from {@code previous} to {@code current}. */
  final Iterator<Scan> rolledBack(Optional<Snapshot> previous, Snapshot current) {
    // a rollback needs a target, so a latest snapshot existed; were there none, the table
    // simply ends where it started
    return result(previous.map(Snapshot::id).orElse(current.id()), current.id());
  }

  /** The result of a call: one row of the output schema per entry of {@code rows}. */
  final Iterator<Scan> results(List<Object[]> rows) {
    InternalRow[] converted = new InternalRow[rows.size()];
    for (int i = 0; i < converted.length; i++) {
      converted[i] = new GenericInternalRow(rows.get(i));
    }
    return Collections.<Scan>singletonList(new Result(converted, output)).iterator();
  }

  private record Result(InternalRow[] rows, StructType readSchema) implements LocalScan {
    Result(InternalRow row, StructType readSchema) {
      this(new InternalRow[] {row}, readSchema);
    }
  }
}
