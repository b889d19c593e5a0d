package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.schema.TableSchema;
import io.basalt.spark.functions.BucketFunctions;
import io.basalt.spark.procedures.Procedures;
import io.basalt.spark.systables.SystemTables;
import io.basalt.table.FileStoreTable;
import io.basalt.table.TableNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchFunctionException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.FunctionCatalog;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.ProcedureCatalog;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalogCapability;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableInfo;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Basalt catalog: databases are directories {@code <warehouse>/<db>.db}, tables are directories
 * inside them in Paimon's layout. Also the function catalog of the bucket function and the
 * procedure catalog of {@code CALL sys.*}.
 */
public class SparkCatalog
    implements StagingTableCatalog, SupportsNamespaces, FunctionCatalog, ProcedureCatalog {
  public static final String WAREHOUSE = "warehouse";
  static final String DEFAULT_DATABASE = "default";
  static final String SYSTEM_NAMESPACE = "sys";

  /** The namespace of identifiers whose name is a table path (the DataFrame API). */
  static final String PATH_NAMESPACE = "__path__";

  /** Catalog option: a catalog without warehouse that only loads tables by path. */
  static final String PATH_ONLY = "path-only";

  /** How often an ALTER TABLE that loses the race for the next schema id starts again. */
  private static final int ALTER_ATTEMPTS = 5;

  private String name;
  private Warehouse warehouse;
  private FileIO fileIO;

  @Override
  public void initialize(String catalogName, CaseInsensitiveStringMap options) {
    this.name = catalogName;
    this.fileIO = FileIO.hadoop(SparkSession.active().sessionState().newHadoopConf());
    if (options.getBoolean(PATH_ONLY, false)) {
      return;
    }
    String location = options.get(WAREHOUSE);
    if (location == null || location.isBlank()) {
      throw new BasaltException(
          String.format(
              "Catalog '%s' has no warehouse. Fix: set spark.sql.catalog.%s.%s=<directory or URI>.",
              catalogName, catalogName, WAREHOUSE));
    }
    Path path = new Path(location);
    this.warehouse = new Warehouse(fileIO, fileIO.fileSystem(path).makeQualified(path));
    warehouse.createDatabase(DEFAULT_DATABASE);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String[] defaultNamespace() {
    return new String[] {DEFAULT_DATABASE};
  }

  FileIO fileIO() {
    return fileIO;
  }

  // ---- namespaces -------------------------------------------------------------------------

  @Override
  public String[][] listNamespaces() {
    return warehouse.databases().stream()
        .map(database -> new String[] {database})
        .toArray(String[][]::new);
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length == 0) {
      return listNamespaces();
    }
    checkNamespace(namespace);
    return new String[0][];
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    return namespace.length == 1 && warehouse.databaseExists(namespace[0]);
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace)
      throws NoSuchNamespaceException {
    checkNamespace(namespace);
    return Map.of();
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata)
      throws NamespaceAlreadyExistsException {
    checkSingleLevel(namespace);
    if (namespaceExists(namespace)) {
      throw new NamespaceAlreadyExistsException(namespace);
    }
    warehouse.createDatabase(namespace[0]);
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw new UnsupportedOperationException(
        "Basalt databases are directories and have no properties to alter");
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade)
      throws NoSuchNamespaceException, NonEmptyNamespaceException {
    if (!namespaceExists(namespace)) {
      return false;
    }
    if (!cascade && listTables(namespace).length > 0) {
      throw new NonEmptyNamespaceException(namespace);
    }
    return warehouse.dropDatabase(namespace[0]);
  }

  // ---- tables -----------------------------------------------------------------------------

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    checkNamespace(namespace);
    return warehouse.tables(namespace[0]).stream()
        .map(table -> Identifier.of(namespace, table))
        .toArray(Identifier[]::new);
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    TableName parsed = TableName.parse(ident, tableExists(ident));
    if (parsed.systemTable() != null) {
      // Paimon's system tables: `t$snapshots`, `t$branch_b$snapshots` and friends
      return SystemTables.load(loadFileStoreTable(parsed.dataTable()), parsed.systemTable());
    }
    return new SparkTable(loadFileStoreTable(ident));
  }

  /**
   * {@code VERSION AS OF version}: a tag of that name, else {@code watermark-<n>}, else a snapshot
   * id. The table reads the chosen snapshot through a time-travel read option, with the schema that
   * snapshot was written with.
   */
  @Override
  public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    TableName parsed = TableName.parse(ident, tableExists(ident));
    FileStoreTable table =
        loadFileStoreTable(parsed.systemTable() == null ? ident : parsed.dataTable(), false);
    return TimeTravelTables.atVersion(table, parsed, version);
  }

  /**
   * {@code TIMESTAMP AS OF}: the latest snapshot committed at or before {@code timestamp}, which
   * Spark passes in microseconds since the epoch, with that snapshot's schema.
   */
  @Override
  public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
    TableName parsed = TableName.parse(ident, tableExists(ident));
    FileStoreTable table =
        loadFileStoreTable(parsed.systemTable() == null ? ident : parsed.dataTable(), false);
    return TimeTravelTables.atTimestamp(table, parsed, timestamp);
  }

  /**
   * Loads the engine table behind {@code ident}: {@code t}, or branch b of it as {@code
   * t$branch_b}.
   *
   * @throws BasaltException naming the existing branches when the branch does not exist
   */
  public FileStoreTable loadFileStoreTable(Identifier ident) throws NoSuchTableException {
    return loadFileStoreTable(ident, true);
  }

  /**
   * @param checkLatest whether to check the latest snapshot's schema; time travel does not read the
   *     latest snapshot, so a damaged latest snapshot must not stop it from reading an older one
   */
  private FileStoreTable loadFileStoreTable(Identifier ident, boolean checkLatest)
      throws NoSuchTableException {
    TableName parsed = TableName.parse(ident, tableExists(ident));
    if (parsed.systemTable() != null) {
      throw new NoSuchTableException(ident);
    }
    if (parsed.branch() != null) {
      FileStoreTable table = loadBaseTable(parsed.base(), checkLatest);
      FileStoreTable branch = table.switchToBranch(parsed.branch());
      return checkLatest ? LatestSchemaCheck.check(branch) : branch;
    }
    return loadBaseTable(ident, checkLatest);
  }

  private FileStoreTable loadBaseTable(Identifier ident, boolean checkLatest)
      throws NoSuchTableException {
    if (isPathIdentifier(ident)) {
      Path path = new Path(ident.name());
      try {
        FileStoreTable table = FileStoreTable.load(fileIO, path, path.getName());
        // a DataFrame read whose time-travel options select an older schema (see SparkSource)
        Long schemaId = SparkSource.schemaIdOf(ident);
        return schemaId == null || schemaId == table.schema().id()
            ? table
            : table.copyWithSchema(table.schemaManager().schema(schemaId));
      } catch (TableNotFoundException e) {
        // Spark's TABLE_OR_VIEW_NOT_FOUND would name an internal `__path__` namespace
        throw new BasaltException(
            String.format(
                "No Basalt or Paimon table at path %s: it has no 'schema' directory. Fix: give"
                    + " the table's own directory (<warehouse>/<db>.db/<table>), or create the"
                    + " table first with CREATE TABLE.",
                path),
            e);
      }
    }
    if (ident.namespace().length != 1) {
      throw new NoSuchTableException(ident);
    }
    try {
      FileStoreTable table = FileStoreTable.load(fileIO, tablePath(ident), tableName(ident));
      return checkLatest ? LatestSchemaCheck.check(table) : table;
    } catch (TableNotFoundException e) {
      throw new NoSuchTableException(ident);
    }
  }

  @Override
  public Table createTable(
      Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    checkNamespace(ident.namespace());
    if (tableExists(ident)) {
      throw new TableAlreadyExistsException(ident);
    }
    TableSchema tableSchema =
        CreateTableSchemas.fromSpark(tableName(ident), schema, partitions, properties);
    FileStoreTable table;
    try {
      table = FileStoreTable.create(fileIO, tablePath(ident), tableName(ident), tableSchema);
    } catch (BasaltException e) {
      if (tableExists(ident)) {
        throw new TableAlreadyExistsException(ident);
      }
      throw e;
    }
    return new SparkTable(table);
  }

  // Spark 4.1 passes PRIMARY KEY and other constraints only through the TableInfo forms
  // (and only to a catalog declaring SUPPORT_TABLE_CONSTRAINT); TableConstraints turns them into
  // the primary-key property or refuses them.

  @Override
  public Set<TableCatalogCapability> capabilities() {
    return ColumnDefaults.CAPABILITIES;
  }

  @Override
  public Table createTable(Identifier ident, TableInfo info)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    Map<String, String> properties = TableConstraints.properties(tableName(ident), info);
    return createTable(ident, info.schema(), info.partitions(), properties);
  }

  @Override
  public StagedTable stageCreate(Identifier ident, TableInfo info)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    Map<String, String> properties = TableConstraints.properties(tableName(ident), info);
    return stageCreate(ident, info.schema(), info.partitions(), properties);
  }

  @Override
  public StagedTable stageReplace(Identifier ident, TableInfo info) throws NoSuchTableException {
    Map<String, String> properties = TableConstraints.properties(tableName(ident), info);
    return stageReplace(ident, info.schema(), info.partitions(), properties);
  }

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, TableInfo info)
      throws NoSuchNamespaceException {
    Map<String, String> properties = TableConstraints.properties(tableName(ident), info);
    return stageCreateOrReplace(ident, info.schema(), info.partitions(), properties);
  }

  // CTAS and REPLACE TABLE: see StagedTables for what Basalt (like Paimon) keeps of the old table

  @Override
  public StagedTable stageCreate(
      Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    return StagedTables.create(this, ident, schema, partitions, properties);
  }

  @Override
  public StagedTable stageReplace(
      Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws NoSuchTableException {
    return StagedTables.replace(this, ident, schema, partitions, properties);
  }

  @Override
  public StagedTable stageCreateOrReplace(
      Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws NoSuchNamespaceException {
    try {
      return tableExists(ident)
          ? StagedTables.replace(this, ident, schema, partitions, properties)
          : StagedTables.create(this, ident, schema, partitions, properties);
    } catch (NoSuchTableException | TableAlreadyExistsException e) {
      throw new BasaltException(
          "Table "
              + tableName(ident)
              + " was created or dropped concurrently while CREATE OR REPLACE TABLE ran; nothing"
              + " was changed. Fix: run the statement again.",
          e);
    }
  }

  /**
   * Writes the next schema version. A concurrent ALTER that took the same schema id first makes
   * this one start again from the new latest schema (its changes are checked again against it).
   */
  @Override
  public Table alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
    for (int attempt = 0; attempt < ALTER_ATTEMPTS; attempt++) {
      FileStoreTable table = loadFileStoreTable(ident);
      TableSchema next = AlterTableSchemas.apply(table, changes);
      if (table.schemaManager().tryCommit(next)) {
        return new SparkTable(table.copyWithSchema(next));
      }
    }
    throw new BasaltException(
        "Table "
            + tableName(ident)
            + " was altered concurrently "
            + ALTER_ATTEMPTS
            + " times while this ALTER TABLE ran; nothing was changed. Fix: retry the ALTER"
            + " TABLE.");
  }

  @Override
  public boolean dropTable(Identifier ident) {
    if (!tableExists(ident)) {
      return false;
    }
    return fileIO.delete(tablePath(ident), true);
  }

  @Override
  public void renameTable(Identifier from, Identifier to)
      throws NoSuchTableException, TableAlreadyExistsException {
    if (!tableExists(from)) {
      throw new NoSuchTableException(from);
    }
    if (tableExists(to)) {
      throw new TableAlreadyExistsException(to);
    }
    Path target = tablePath(to);
    try {
      if (!fileIO.fileSystem(target).rename(tablePath(from), target)) {
        throw new BasaltException(
            "Failed to rename table " + tableName(from) + " to " + tableName(to));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to rename " + tablePath(from) + " to " + target, e);
    }
  }

  private static boolean isPathIdentifier(Identifier ident) {
    return ident.namespace().length >= 1 && PATH_NAMESPACE.equals(ident.namespace()[0]);
  }

  @Override
  public boolean tableExists(Identifier ident) {
    if (isPathIdentifier(ident)) {
      return fileIO.exists(new Path(new Path(ident.name()), "schema"));
    }
    return ident.namespace().length == 1 && fileIO.exists(new Path(tablePath(ident), "schema"));
  }

  // ---- functions and procedures -----------------------------------------------------------

  @Override
  public Identifier[] listFunctions(String[] namespace) {
    return new Identifier[] {Identifier.of(namespace, BucketFunctions.NAME)};
  }

  @Override
  public UnboundFunction loadFunction(Identifier ident) throws NoSuchFunctionException {
    Optional<BucketFunctions> bucket = BucketFunctions.forName(ident.name());
    if (bucket.isPresent()) {
      return bucket.get();
    }
    throw new NoSuchFunctionException(ident);
  }

  @Override
  public UnboundProcedure loadProcedure(Identifier ident) {
    if (ident.namespace().length == 1 && SYSTEM_NAMESPACE.equals(ident.namespace()[0])) {
      UnboundProcedure procedure = Procedures.load(this, ident.name());
      if (procedure != null) {
        return procedure;
      }
    }
    throw new BasaltException(
        String.format(
            "Procedure %s.%s does not exist; Basalt's procedures are sys.%s",
            String.join(".", ident.namespace()),
            ident.name(),
            String.join(", sys.", Procedures.names())));
  }

  @Override
  public Identifier[] listProcedures(String[] namespace) {
    if (namespace.length == 1 && SYSTEM_NAMESPACE.equals(namespace[0])) {
      return Procedures.names().stream()
          .map(n -> Identifier.of(namespace, n))
          .toArray(Identifier[]::new);
    }
    return new Identifier[0];
  }

  // ---- paths ------------------------------------------------------------------------------

  /** The directory of table {@code ident}. */
  public Path tablePath(Identifier ident) {
    return warehouse.tablePath(ident.namespace()[0], ident.name());
  }

  private static String tableName(Identifier ident) {
    return String.join(".", ident.namespace()) + "." + ident.name();
  }

  private void checkNamespace(String[] namespace) throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
  }

  private static void checkSingleLevel(String[] namespace) {
    if (namespace.length != 1) {
      throw new BasaltException(
          "Basalt databases have one level; got " + String.join(".", namespace));
    }
  }
}
