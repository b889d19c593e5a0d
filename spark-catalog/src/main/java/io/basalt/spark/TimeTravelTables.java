package io.basalt.spark;

import io.basalt.options.ReadOptions;
import io.basalt.snapshot.Snapshot;
import io.basalt.spark.systables.SystemTables;
import io.basalt.table.FileStoreTable;
import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;

/**
 * The tables {@code VERSION AS OF} and {@code TIMESTAMP AS OF} load, with their snapshot's schema.
 */
final class TimeTravelTables {
  private TimeTravelTables() {}

  /**
   * {@code VERSION AS OF version}: a tag of that name, else {@code watermark-<n>}, else a snapshot
   * id, read through a time-travel read option.
   */
  static Table atVersion(FileStoreTable table, TableName parsed, String version) {
    Snapshot snapshot = table.timeTravel().version(version);
    // a tag pins by name: it stays readable after its snapshot expired
    Map<String, String> pin =
        table.tagManager().exists(version)
            ? Map.of(ReadOptions.SCAN_TAG_NAME.key(), version)
            : Map.of(ReadOptions.SCAN_SNAPSHOT_ID.key(), String.valueOf(snapshot.id()));
    return timeTravelled(table, parsed, snapshot, pin);
  }

  /** {@code TIMESTAMP AS OF}, which Spark passes in microseconds since the epoch. */
  static Table atTimestamp(FileStoreTable table, TableName parsed, long micros) {
    Snapshot snapshot = table.timeTravel().asOfTimestamp(Math.floorDiv(micros, 1000L));
    return timeTravelled(
        table,
        parsed,
        snapshot,
        Map.of(ReadOptions.SCAN_SNAPSHOT_ID.key(), String.valueOf(snapshot.id())));
  }

  /** The data table, or its system table, reading {@code snapshot} through the {@code pin}. */
  private static Table timeTravelled(
      FileStoreTable table, TableName parsed, Snapshot snapshot, Map<String, String> pin) {
    FileStoreTable pinned = withSchemaOf(table, snapshot).copyWithOptions(pin);
    return parsed.systemTable() == null
        ? new SparkTable(pinned)
        : SystemTables.loadAsOf(pinned, parsed.systemTable());
  }

  /** {@code table} with the schema {@code snapshot} was committed with (old columns included). */
  private static FileStoreTable withSchemaOf(FileStoreTable table, Snapshot snapshot) {
    return snapshot.schemaId() == table.schema().id()
        ? table
        : table.copyWithSchema(table.schemaManager().schema(snapshot.schemaId()));
  }
}
