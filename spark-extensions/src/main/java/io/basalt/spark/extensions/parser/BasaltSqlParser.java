package io.basalt.spark.extensions.parser;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.parser.ParameterContext;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.command.ResetCommand;
import org.apache.spark.sql.execution.command.SetCommand;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.Tuple2;
import scala.collection.immutable.Seq;

/**
 * Accepts {@code SET spark.paimon.<key> = value} and {@code RESET spark.paimon.<key>} with the
 * hyphenated keys Paimon's options have (for example {@code scan.preserve-data-grouping}), as the
 * Paimon documentation writes them: Spark's own SET grammar allows only letters, digits, {@code _},
 * {@code .} and {@code :} in an unquoted key and rejects them. Statements in Flink's forms that
 * Paimon's docs use ({@code WITH (...)}, {@code ROW<...>}, {@code ARRAY[...]}, ...) are translated
 * to Spark's forms by {@link FlinkSqlForms} first. Every other statement, including SET of any key
 * without a hyphen or outside {@code spark.paimon.}, goes to Spark's parser as it is.
 */
public final class BasaltSqlParser implements ParserInterface {
  /**
   * An unquoted {@code spark.paimon.} key with at least one hyphen; {@code *} stands for any
   * database or table in a per-table key ({@code spark.paimon.*.db.t.incremental-between}).
   */
  private static final String KEY = "(spark\\.paimon\\.[\\w.:*-]*-[\\w.:*-]*)";

  // the value stops at the first ';' as in Spark's SET; trailing semicolons are dropped
  private static final Pattern SET =
      Pattern.compile("(?is)\\s*SET\\s+" + KEY + "\\s*(?:=([^;]*))?[;\\s]*");
  private static final Pattern RESET = Pattern.compile("(?is)\\s*RESET\\s+" + KEY + "[;\\s]*");

  private final ParserInterface delegate;

  public BasaltSqlParser(ParserInterface delegate) {
    this.delegate = delegate;
  }

  @Override
  public LogicalPlan parsePlan(String sqlText) throws ParseException {
    Optional<LogicalPlan> command = paimonConfCommand(sqlText);
    return command.isPresent() ? command.get() : parse(sqlText, delegate::parsePlan);
  }

  @Override
  public LogicalPlan parsePlanWithParameters(String sqlText, ParameterContext context)
      throws ParseException {
    Optional<LogicalPlan> command = paimonConfCommand(sqlText);
    return command.isPresent()
        ? command.get()
        : parse(sqlText, text -> delegate.parsePlanWithParameters(text, context));
  }

  /** Spark's parser reads a text the interface's methods take. */
  @FunctionalInterface
  private interface SparkParse<T> {
    T apply(String sqlText) throws ParseException;
  }

  /** Parses the Spark form of a text with Flink forms, else the text as it is. */
  private static <T> T parse(String sqlText, SparkParse<T> spark) throws ParseException {
    return spark.apply(FlinkSqlForms.translate(sqlText).orElse(sqlText));
  }

  /** The SET or RESET command of a hyphenated {@code spark.paimon.} key, if that is the text. */
  static Optional<LogicalPlan> paimonConfCommand(String sqlText) {
    Matcher set = SET.matcher(sqlText);
    if (set.matches()) {
      Option<String> value =
          set.group(2) == null ? Option.empty() : Option.apply(set.group(2).trim());
      return Optional.of(new SetCommand(Option.apply(Tuple2.apply(set.group(1), value))));
    }
    Matcher reset = RESET.matcher(sqlText);
    if (reset.matches()) {
      return Optional.of(new ResetCommand(Option.apply(reset.group(1))));
    }
    return Optional.empty();
  }

  @Override
  public Expression parseExpression(String sqlText) throws ParseException {
    return parse(sqlText, delegate::parseExpression);
  }

  @Override
  public TableIdentifier parseTableIdentifier(String sqlText) throws ParseException {
    return delegate.parseTableIdentifier(sqlText);
  }

  @Override
  public FunctionIdentifier parseFunctionIdentifier(String sqlText) throws ParseException {
    return delegate.parseFunctionIdentifier(sqlText);
  }

  @Override
  public Seq<String> parseMultipartIdentifier(String sqlText) throws ParseException {
    return delegate.parseMultipartIdentifier(sqlText);
  }

  @Override
  public LogicalPlan parseQuery(String sqlText) throws ParseException {
    return parse(sqlText, delegate::parseQuery);
  }

  @Override
  public StructType parseRoutineParam(String sqlText) throws ParseException {
    return delegate.parseRoutineParam(sqlText);
  }

  @Override
  public StructType parseTableSchema(String sqlText) throws ParseException {
    return delegate.parseTableSchema(sqlText);
  }

  @Override
  public DataType parseDataType(String sqlText) throws ParseException {
    return parse(sqlText, delegate::parseDataType);
  }
}
