package io.basalt.spark.procedures;

import io.basalt.BasaltException;
import io.basalt.consumer.ConsumerManager;
import io.basalt.spark.SparkCatalog;
import io.basalt.table.FileStoreTable;
import java.util.Iterator;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL sys.clear_consumers(table => 'db.t', includingConsumers => 'a.*', excludingConsumers
 * => 'a1')}: deletes the streaming consumers whose id matches the including regular expression (all
 * when absent) and not the excluding one, with Paimon's argument names.
 */
final class ClearConsumersProcedure extends BaseProcedure {
  static final String NAME = "clear_consumers";

  private static final ProcedureParameter[] PARAMETERS = {
    ProcedureParameter.in("table", DataTypes.StringType).build(),
    ProcedureParameter.in("includingConsumers", DataTypes.StringType).defaultValue("NULL").build(),
    ProcedureParameter.in("excludingConsumers", DataTypes.StringType).defaultValue("NULL").build()
  };

  ClearConsumersProcedure(SparkCatalog catalog) {
    super(catalog, NAME, "Deletes streaming consumers", PARAMETERS, RESULT);
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    FileStoreTable table = loadTable(input.getUTF8String(0).toString());
    Pattern including = pattern(input, 1, "includingConsumers", table.name());
    Pattern excluding = pattern(input, 2, "excludingConsumers", table.name());
    ConsumerManager consumers = new ConsumerManager(table.fileIO(), table.paths());
    for (String id : consumers.ids()) {
      boolean included = including == null || including.matcher(id).matches();
      if (included && (excluding == null || !excluding.matcher(id).matches())) {
        consumers.delete(id);
      }
    }
    return result(true);
  }

  @Nullable
  private static Pattern pattern(InternalRow input, int ordinal, String argument, String table) {
    if (input.isNullAt(ordinal) || input.getUTF8String(ordinal).toString().isBlank()) {
      return null;
    }
    String regex = input.getUTF8String(ordinal).toString();
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new BasaltException(
          String.format(
              "%s on %s: invalid regular expression '%s' for argument '%s': %s. Fix: pass a Java"
                  + " regular expression such as 'orders-.*'.",
              NAME, table, regex, argument, e.getDescription()),
          e);
    }
  }
}
