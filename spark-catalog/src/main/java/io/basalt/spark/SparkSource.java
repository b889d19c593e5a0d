package io.basalt.spark;

import io.basalt.BasaltException;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.SupportsCatalogOptions;
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
 */
public class SparkSource implements DataSourceRegister, SupportsCatalogOptions {
  /** The hidden catalog that loads tables by path. */
  static final String PATH_CATALOG = "__basalt_path_catalog";

  @Override
  public String shortName() {
    return "paimon";
  }

  @Override
  public Identifier extractIdentifier(CaseInsensitiveStringMap options) {
    return Identifier.of(new String[] {SparkCatalog.PATH_NAMESPACE}, path(options));
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

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    throw new UnsupportedOperationException("Basalt tables are loaded through their catalog");
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    throw new UnsupportedOperationException("Basalt tables are loaded through their catalog");
  }
}
