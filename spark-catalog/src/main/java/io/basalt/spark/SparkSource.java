package io.basalt.spark;

import io.basalt.BasaltException;
import io.basalt.fs.FileIO;
import io.basalt.options.ConfigOption;
import io.basalt.options.ReadOptions;
import io.basalt.options.StreamOptions;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.systables.SystemTables;
import io.basalt.table.FileStoreTable;
import io.basalt.table.TableNotFoundException;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.SupportsCatalogOptions;
import org.apache.spark.sql.connector.catalog.SupportsV1OverwriteWithSaveAsTable;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code paimon} data source of the DataFrame API: {@code
 * spark.read.format("paimon").load(path)} and {@code df.write.format("paimon").save(path)} on an
 * existing table. Path-based access is routed through a hidden Basalt catalog, so writes resolve
 * the bucket function like catalog writes do.
 *
 * <p>A read whose time-travel options ({@code scan.snapshot-id}, {@code scan.tag-name}, ...) select
 * a snapshot written with an older schema names that schema in its identifier ({@code
 * __path__.schema-<id>}), so the table shows the snapshot's own columns.
 *
 * <p>{@code df.write.format("paimon").mode("overwrite").saveAsTable(t)} is marked with Spark's
 * {@value SupportsV1OverwriteWithSaveAsTable#OPTION_NAME} write option, so that the session
 * extensions can run it as an overwrite that keeps an existing table's definition, as Paimon does.
 */
public class SparkSource
    implements DataSourceRegister, SupportsCatalogOptions, SupportsV1OverwriteWithSaveAsTable {
  /** The hidden catalog that loads tables by path. */
  static final String PATH_CATALOG = "__basalt_path_catalog";

  @Override
  public String shortName() {
    return "paimon";
  }

  /** The namespace part that names the schema of a time-travel read. */
  private static final String SCHEMA_PREFIX = "schema-";

  @Override
  public Identifier extractIdentifier(CaseInsensitiveStringMap options) {
    String path = path(options);
    Long schemaId = timeTravelSchemaId(path, options);
    String[] namespace =
        schemaId == null
            ? new String[] {SparkCatalog.PATH_NAMESPACE}
            : new String[] {SparkCatalog.PATH_NAMESPACE, SCHEMA_PREFIX + schemaId};
    return Identifier.of(namespace, path);
  }

  /** The schema id a path identifier names, or null for the latest schema. */
  @Nullable
  static Long schemaIdOf(Identifier ident) {
    String[] namespace = ident.namespace();
    if (namespace.length == 2 && namespace[1].startsWith(SCHEMA_PREFIX)) {
      return Long.parseLong(namespace[1].substring(SCHEMA_PREFIX.length()));
    }
    return null;
  }

  /** The schema of the snapshot the time-travel options select, or null when there are none. */
  @Nullable
  private static Long timeTravelSchemaId(String path, CaseInsensitiveStringMap options) {
    boolean timeTravel = false;
    for (ConfigOption<?> option : ReadOptions.TIME_TRAVEL_OPTIONS) {
      timeTravel |= options.containsKey(option.key());
    }
    if (!timeTravel) {
      return null;
    }
    Path root = new Path(path);
    FileStoreTable table;
    try {
      table =
          FileStoreTable.load(
              FileIO.hadoop(SparkSession.active().sessionState().newHadoopConf()),
              root,
              root.getName());
    } catch (TableNotFoundException e) {
      return null; // the catalog reports the missing table with Spark's own error
    }
    Optional<Snapshot> snapshot =
        table.copyWithOptions(options.asCaseSensitiveMap()).timeTravelSnapshot();
    return snapshot.map(Snapshot::schemaId).orElse(null);
  }

  @Override
  public String extractCatalog(CaseInsensitiveStringMap options) {
    SparkSession session = SparkSession.active();
    String key = "spark.sql.catalog." + PATH_CATALOG;
    if (!session.conf().contains(key)) {
      session.conf().set(key, SparkCatalog.class.getName());
      session.conf().set(key + "." + SparkCatalog.PATH_ONLY, "true");
    }
    return PATH_CATALOG;
  }

  private static String path(CaseInsensitiveStringMap options) {
    String path = options.get("path");
    if (path == null || path.isBlank()) {
      throw new BasaltException(
          "The paimon data source needs a table path: spark.read.format(\"paimon\").load(\"<table"
              + " directory>\"), or use the catalog: spark.table(\"paimon.db.t\")");
    }
    return path;
  }

  /**
   * The schema of the table at {@code path}. Spark's batch reader and writer ask the catalog that
   * {@link #extractCatalog} names; its streaming reader and writer ask the provider itself.
   */
  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return pathTable(options).schema();
  }

  /** The table at the {@code path} property, loaded through the hidden path catalog. */
  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return pathTable(new CaseInsensitiveStringMap(properties));
  }

  /**
   * The table at the {@code path} option; with {@code read.changelog} its {@code $audit_log} view,
   * whose leading {@code rowkind} column a streaming read of changes produces.
   */
  private Table pathTable(CaseInsensitiveStringMap options) {
    String catalog = extractCatalog(options);
    try {
      Table table =
          ((SparkCatalog) SparkSession.active().sessionState().catalogManager().catalog(catalog))
              .loadTable(extractIdentifier(options));
      if (options.getBoolean(StreamOptions.READ_CHANGELOG.key(), false)
          && table instanceof SparkTable data) {
        return SystemTables.load(data.fileStoreTable(), "audit_log");
      }
      return table;
    } catch (NoSuchTableException e) {
      throw new BasaltException(
          "No Basalt table at path " + path(options) + ": create it first (CREATE TABLE)", e);
    }
  }
}
