package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.operation.orphan.OrphanFilesClean;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Iterator;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL sys.remove_orphan_files(table => 'db.t', older_than => '2024-01-01 00:00:00', dry_run
 * => true)}: lists, and unless {@code dry_run} deletes, the files under the table that no snapshot,
 * tag or branch references and that are older than {@code older_than} (session time zone; default
 * one day ago). Returns Paimon's columns: their count and total size.
 */
final class RemoveOrphanFilesProcedure extends BaseProcedure {
  static final String NAME = "remove_orphan_files";

  private static final long ONE_DAY_MILLIS = 86_400_000L;

  private static final DateTimeFormatter OLDER_THAN =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .toFormatter(Locale.ROOT);

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("older_than", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("dry_run", DataTypes.BooleanType).defaultValue("false").build()
  };

  private static final StructType OUTPUT =
      new StructType(
          new StructField[] {
            // Paimon's column names
            DataTypes.createStructField("deletedFileCount", DataTypes.LongType, false),
            DataTypes.createStructField("deletedFileTotalLenInBytes", DataTypes.LongType, false)
          });

  RemoveOrphanFilesProcedure(SparkCatalog catalog) {
    super(
        catalog,
        NAME,
        "Lists or deletes the files no snapshot, tag or branch references",
        PARAMETERS,
        OUTPUT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    long olderThan =
        input.isNullAt(1)
            ? System.currentTimeMillis() - ONE_DAY_MILLIS
            : parseOlderThan(table, input.getUTF8String(1).toString());
    boolean dryRun = !input.isNullAt(2) && input.getBoolean(2);
    OrphanFilesClean.Result result = new OrphanFilesClean(table).clean(olderThan, dryRun, 0);
    return result(result.count(), result.bytes());
  }

  /** {@code yyyy-MM-dd HH:mm:ss[.fraction]} in the session time zone, as epoch millis. */
  private static long parseOlderThan(FileStoreTable table, String text) {
    try {
      LocalDateTime local = LocalDateTime.parse(text.trim(), OLDER_THAN);
      ZoneId zone = ZoneId.of(SparkSession.active().sessionState().conf().sessionLocalTimeZone());
      return local.atZone(zone).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new BasaltException(
          String.format(
              "%s on table %s: invalid older_than '%s': expected a time like '2024-01-01"
                  + " 00:00:00' (session time zone). Fix: pass older_than => 'yyyy-MM-dd"
                  + " HH:mm:ss', or leave it out for one day ago.",
              NAME, table.name(), text),
          e);
    }
  }
}
