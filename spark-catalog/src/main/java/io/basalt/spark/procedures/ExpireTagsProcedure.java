package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.options.Durations;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import io.basalt.tag.TableTags;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code CALL sys.expire_tags(table => 'db.t', older_than => TIMESTAMP '2024-12-01 00:00:00')}:
 * deletes the tags whose retention time passed and, with {@code older_than}, the tags created
 * before it, with the files only they kept alive. Returns one row per deleted tag. Instead of
 * {@code older_than}, {@code expire_time => '7 d'} (a Basalt extension; Paimon has only {@code
 * older_than}) deletes the tags created more than that duration ago.
 */
final class ExpireTagsProcedure extends BaseProcedure {
  static final String NAME = "expire_tags";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("older_than", DataTypes.TimestampType).defaultValue("NULL").build(),
    ProcedureParameter.in("expire_time", DataTypes.StringType).defaultValue("NULL").build()
  };

  private static final StructType OUTPUT =
      new StructType(
          new StructField[] {
            DataTypes.createStructField("expired_tags", DataTypes.StringType, false)
          });

  ExpireTagsProcedure(SparkCatalog catalog) {
    super(
        catalog,
        NAME,
        "Deletes tags whose retention passed, or created before older_than",
        PARAMETERS,
        OUTPUT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    // tag creation times are local times of the writer's default zone, as in Paimon
    LocalDateTime olderThan =
        input.isNullAt(1)
            ? null
            : LocalDateTime.ofInstant(
                Instant.EPOCH.plus(input.getLong(1), ChronoUnit.MICROS), ZoneId.systemDefault());
    if (!input.isNullAt(2)) {
      olderThan = olderThanDuration(table.name(), olderThan, input.getUTF8String(2).toString());
    }
    List<Object[]> rows = new ArrayList<>();
    List<String> expired = new TableTags(table).expire(olderThan);
    // as Paimon: one row saying so when nothing expired
    for (String name : expired.isEmpty() ? List.of("No expired tags.") : expired) {
      rows.add(new Object[] {UTF8String.fromString(name)});
    }
    return results(rows);
  }

  /** The creation time before which tags expire, {@code expireTime} (a duration) ago. */
  private static LocalDateTime olderThanDuration(
      String table, @Nullable LocalDateTime olderThan, String expireTime) {
    if (olderThan != null) {
      throw new BasaltException(
          String.format(
              "%s on %s: give either older_than or expire_time, not both. Fix: drop one of them.",
              NAME, table));
    }
    long millis;
    try {
      millis = Durations.parseMillis(expireTime);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new BasaltException(
          String.format(
              "%s: invalid value '%s' for argument 'expire_time' on table %s: %s. Fix: give a"
                  + " retention such as '7 d' or '12 h'.",
              NAME, expireTime, table, e.getMessage()),
          e);
    }
    return LocalDateTime.now().minus(millis, ChronoUnit.MILLIS);
  }
}
