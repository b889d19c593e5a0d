package io.basalt.spark.extensions.parser;

import io.basalt.BasaltException;
import io.basalt.spark.extensions.parser.SqlTokens.Kind;
import io.basalt.spark.extensions.parser.SqlTokens.Token;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rewrites the Flink SQL forms that Paimon's docs and users write into Spark's own forms, token by
 * token, so that Spark's parser parses the result:
 *
 * <ul>
 *   <li>{@code CREATE TABLE ... WITH ('k' = 'v')} to {@code TBLPROPERTIES ('k' = 'v')};
 *   <li>{@code ALTER TABLE t SET ('k' = 'v')} to {@code SET TBLPROPERTIES}, {@code ALTER TABLE t
 *       RESET ('k')} to {@code UNSET TBLPROPERTIES};
 *   <li>the type {@code ROW<a INT, ...>} to {@code STRUCT<a INT, ...>}, the value {@code ROW(x, y)}
 *       to {@code STRUCT(x, y)} (fields are matched by position when it is written to a column);
 *   <li>{@code ARRAY[x, y]} to {@code ARRAY(x, y)} and {@code MAP[k, v]} to {@code MAP(k, v)};
 *   <li>{@code TIMESTAMP(p)} and {@code TIMESTAMP(p) WITHOUT TIME ZONE} to {@code TIMESTAMP_NTZ},
 *       {@code TIMESTAMP_LTZ(p)} and {@code TIMESTAMP(p) WITH LOCAL TIME ZONE} to {@code
 *       TIMESTAMP_LTZ}: Spark's timestamps hold microseconds, so any precision becomes 6.
 * </ul>
 *
 * A lookup join ({@code FOR SYSTEM_TIME AS OF o.proc_time}) is Flink-only and fails with a message
 * saying so. Text inside strings, back-quoted identifiers and comments is never changed.
 */
final class FlinkSqlForms {
  private final List<Token> tokens;

  /** Indexes into {@link #tokens} of the tokens that are not white space or comments. */
  private final List<Integer> code = new ArrayList<>();

  /** Replacement texts by token index. */
  private final Map<Integer, String> replaced = new HashMap<>();

  private FlinkSqlForms(String sql) {
    this.tokens = SqlTokens.tokenize(sql);
    for (int i = 0; i < tokens.size(); i++) {
      if (tokens.get(i).isCode()) {
        code.add(i);
      }
    }
  }

  /** The Spark form of {@code sql}, or empty when it has no Flink form (then it is left alone). */
  static Optional<String> translate(String sql) {
    FlinkSqlForms forms = new FlinkSqlForms(sql);
    forms.rewrite();
    return forms.replaced.isEmpty() ? Optional.empty() : Optional.of(forms.text());
  }

  private void rewrite() {
    boolean tableDdl = startsWith("CREATE") || startsWith("REPLACE");
    boolean alterTable = startsWith("ALTER") && at(1).isWord("TABLE");
    tableDdl = tableDdl && leadingWordsContainTable();
    Deque<Boolean> brackets = new ArrayDeque<>();
    int depth = 0;
    boolean query = false;
    for (int k = 0; k < code.size(); k++) {
      Token token = at(k);
      Token next = at(k + 1);
      if (token.isSymbol('(')) {
        depth++;
      } else if (token.isSymbol(')')) {
        depth--;
      } else if (depth == 0 && token.isWord("AS")) {
        query = true; // CTAS: what follows is a query, whose WITH is a CTE
      }
      if (tableDdl && depth == 0 && !query && token.isWord("WITH") && next.isSymbol('(')) {
        replace(k, "TBLPROPERTIES");
      } else if (alterTable && depth == 0 && token.isWord("SET") && next.isSymbol('(')) {
        replace(k, "SET TBLPROPERTIES");
      } else if (alterTable && depth == 0 && token.isWord("RESET") && next.isSymbol('(')) {
        replace(k, "UNSET TBLPROPERTIES");
      } else if (token.isWord("ROW")
          && (next.isSymbol('<') || next.isSymbol('('))
          && !at(k - 1).isWord("AS")) { // AS row(a, b) names a relation's columns
        replace(k, "STRUCT");
      } else if ((token.isWord("ARRAY") || token.isWord("MAP")) && next.isSymbol('[')) {
        replace(k + 1, "(");
        brackets.push(true);
        k++;
      } else if (token.isSymbol('[')) {
        brackets.push(false);
      } else if (token.isSymbol(']') && !brackets.isEmpty() && brackets.pop()) {
        replace(k, ")");
      } else if (token.isWord("TIMESTAMP") || token.isWord("TIMESTAMP_LTZ")) {
        k = timestamp(k);
      } else if (token.isWord("SYSTEM_TIME")) {
        checkNotLookupJoin(k);
      }
    }
  }

  /** Rewrites a Flink timestamp type starting at code token {@code k}; returns its last token. */
  private int timestamp(int k) {
    boolean precision =
        at(k + 1).isSymbol('(') && at(k + 2).kind() == Kind.NUMBER && at(k + 3).isSymbol(')');
    if (!precision) {
      return k;
    }
    boolean local = at(k).isWord("TIMESTAMP_LTZ");
    int last = k + 3;
    if (at(k + 4).isWord("WITH")
        && at(k + 5).isWord("LOCAL")
        && at(k + 6).isWord("TIME")
        && at(k + 7).isWord("ZONE")) {
      local = true;
      last = k + 7;
    } else if (at(k + 4).isWord("WITHOUT")
        && at(k + 5).isWord("TIME")
        && at(k + 6).isWord("ZONE")) {
      last = k + 6;
    }
    replace(k, local ? "TIMESTAMP_LTZ" : "TIMESTAMP_NTZ");
    for (int i = code.get(k) + 1; i <= code.get(last); i++) {
      replaced.put(i, "");
    }
    return last;
  }

  /** Flink's lookup join {@code FOR SYSTEM_TIME AS OF t.col} has no Spark equivalent. */
  private void checkNotLookupJoin(int k) {
    boolean lookupJoin =
        at(k - 1).isWord("FOR")
            && at(k + 1).isWord("AS")
            && at(k + 2).isWord("OF")
            && at(k + 3).kind() == Kind.WORD
            && at(k + 4).isSymbol('.');
    if (lookupJoin) {
      throw new BasaltException(
          String.format(
              "FOR SYSTEM_TIME AS OF %s.%s is a Flink lookup join, which Spark does not have: Spark"
                  + " time travel takes a constant timestamp, not a column. Fix: join the Paimon"
                  + " table directly (it is read at its latest snapshot), or run the lookup join in"
                  + " Flink.",
              at(k + 3).text(), at(k + 5).text()));
    }
  }

  private boolean startsWith(String word) {
    return at(0).isWord(word);
  }

  /** Whether TABLE is among the words before the table name (CREATE OR REPLACE TABLE ...). */
  private boolean leadingWordsContainTable() {
    for (int k = 1; k < Math.min(code.size(), 5); k++) {
      if (at(k).isWord("TABLE")) {
        return true;
      }
    }
    return false;
  }

  private Token at(int k) {
    return k >= 0 && k < code.size() ? tokens.get(code.get(k)) : new Token(Kind.SPACE, "");
  }

  private void replace(int k, String text) {
    replaced.put(code.get(k), text);
  }

  private String text() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < tokens.size(); i++) {
      sb.append(replaced.getOrDefault(i, tokens.get(i).text()));
    }
    return sb.toString();
  }
}
