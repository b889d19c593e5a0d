package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.spark.functions.BucketFunctions;
import io.basalt.spark.procedures.Procedures;
import io.basalt.spark.systables.SystemTables;
import io.basalt.table.FileStoreTable;
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

  private String name;
  private Warehouse warehouse;
  private FileIO fileIO;
  private CatalogTables tables;

  @Override
  public void initialize(String catalogName, CaseInsensitiveStringMap options) {
    this.name = catalogName;
    this.fileIO = FileIO.hadoop(SparkSession.active().sessionState().newHadoopConf());
    if (options.getBoolean(PATH_ONLY, false)) {
      this.tables = new CatalogTables(fileIO, null);
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
    this.tables = new CatalogTables(fileIO, warehouse);
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
    return TimeTravelTables.atVersion(tables.loadForTimeTravel(ident, parsed), parsed, version);
  }

  /**
   * {@code TIMESTAMP AS OF}: the latest snapshot committed at or before {@code timestamp}, which
   * Spark passes in microseconds since the epoch, with that snapshot's schema.
   */
  @Override
  public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
    TableName parsed = TableName.parse(ident, tableExists(ident));
    return TimeTravelTables.atTimestamp(tables.loadForTimeTravel(ident, parsed), parsed, timestamp);
  }

  /**
   * Loads the engine table behind {@code ident}: {@code t}, or branch b of it as {@code
   * t$branch_b}.
   *
   * @throws BasaltException naming the existing branches when the branch does not exist
   */
  public FileStoreTable loadFileStoreTable(Identifier ident) throws NoSuchTableException {
    return tables.load(ident, true);
  }

  @Override
  public Table createTable(
      Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    checkNamespace(ident.namespace());
    return new SparkTable(tables.create(ident, schema, partitions, properties));
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
    return new SparkTable(tables.alter(ident, changes));
  }

  @Override
  public boolean dropTable(Identifier ident) {
    return tables.drop(ident);
  }

  @Override
  public void renameTable(Identifier from, Identifier to)
      throws NoSuchTableException, TableAlreadyExistsException {
    tables.rename(from, to);
  }

  @Override
  public boolean tableExists(Identifier ident) {
    return tables.exists(ident);
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
    return tables.tablePath(ident);
  }

  private static String tableName(Identifier ident) {
    return CatalogTables.tableName(ident);
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
