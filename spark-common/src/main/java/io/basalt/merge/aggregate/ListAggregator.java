package io.basalt.merge.aggregate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code listagg}: joins non-blank strings with {@code fields.<f>.list-agg-delimiter} (default
 * {@code ,}), older first; null and blank inputs are skipped. With {@code fields.<f>.distinct} the
 * input's tokens (split by the delimiter) already present are not appended again, as Paimon does.
 */
final class ListAggregator extends BaseAggregator {
  static final String DELIMITER_OPTION = "list-agg-delimiter";
  private static final long serialVersionUID = 1L;

  private final String delimiter;
  private final boolean distinct;
  @Nullable private transient UTF8String delimiterString;

  ListAggregator(AggregatorContext context) {
    super(context);
    this.delimiter = context.fieldString(DELIMITER_OPTION, ",");
    this.distinct = context.fieldFlag("distinct", false);
  }

  @Nullable
  @Override
  public Object agg(@Nullable Object accumulator, @Nullable Object input) {
    if (input == null || isBlank((UTF8String) input)) {
      return accumulator;
    }
    if (accumulator == null || isBlank((UTF8String) accumulator)) {
      return ((UTF8String) input).copy();
    }
    UTF8String acc = (UTF8String) accumulator;
    UTF8String in = (UTF8String) input;
    // concat builds new bytes, so the result never shares the input's buffer.
    return distinct ? appendNewTokens(acc, in) : UTF8String.concat(acc, delimiter(), in);
  }

  private UTF8String appendNewTokens(UTF8String acc, UTF8String in) {
    UTF8String separator = delimiter();
    Set<UTF8String> present = new HashSet<>();
    for (UTF8String token : tokens(acc, separator)) {
      present.add(token);
    }
    UTF8String result = acc;
    for (UTF8String token : tokens(in, separator)) {
      if (!isBlank(token) && present.add(token.copy())) {
        result = UTF8String.concat(result, separator, token);
      }
    }
    return result;
  }

  /** Splits on the delimiter taken literally (not as a regular expression). */
  private static List<UTF8String> tokens(UTF8String value, UTF8String separator) {
    List<UTF8String> tokens = new ArrayList<>();
    if (separator.numBytes() == 0) {
      tokens.add(value);
      return tokens;
    }
    int length = value.numChars();
    int start = 0;
    int next;
    while ((next = value.indexOf(separator, start)) >= 0) {
      tokens.add(value.substring(start, next));
      start = next + separator.numChars();
    }
    tokens.add(value.substring(start, length));
    return tokens;
  }

  private UTF8String delimiter() {
    if (delimiterString == null) {
      delimiterString = UTF8String.fromString(delimiter);
    }
    return delimiterString;
  }

  private static boolean isBlank(UTF8String value) {
    return value.trimAll().numBytes() == 0;
  }
}
