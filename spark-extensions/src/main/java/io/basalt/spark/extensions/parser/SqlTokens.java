package io.basalt.spark.extensions.parser;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text into the tokens {@link FlinkSqlForms} looks at: words, numbers, quoted strings,
 * back-quoted identifiers, comments, white space and single punctuation characters. Concatenating
 * the tokens' texts gives back the input exactly, so a translation only touches the tokens it
 * rewrites, and text inside strings, identifiers and comments is never rewritten.
 */
final class SqlTokens {
  /** The kinds of token; {@link #isCode()} is false for white space and comments. */
  enum Kind {
    WORD,
    NUMBER,
    STRING,
    QUOTED_IDENTIFIER,
    COMMENT,
    SPACE,
    SYMBOL
  }

  /** One token: its kind and its exact text. */
  record Token(Kind kind, String text) {
    boolean isCode() {
      return kind != Kind.COMMENT && kind != Kind.SPACE;
    }

    boolean isWord(String word) {
      return kind == Kind.WORD && text.equalsIgnoreCase(word);
    }

    boolean isSymbol(char symbol) {
      return kind == Kind.SYMBOL && text.charAt(0) == symbol;
    }
  }

  private SqlTokens() {}

  static List<Token> tokenize(String sql) {
    List<Token> tokens = new ArrayList<>();
    int i = 0;
    while (i < sql.length()) {
      int end = tokenEnd(sql, i);
      tokens.add(new Token(kindAt(sql, i), sql.substring(i, end)));
      i = end;
    }
    return tokens;
  }

  private static Kind kindAt(String sql, int i) {
    char c = sql.charAt(i);
    if (Character.isWhitespace(c)) {
      return Kind.SPACE;
    } else if (sql.startsWith("--", i) || sql.startsWith("/*", i)) {
      return Kind.COMMENT;
    } else if (c == '\'' || c == '"') {
      return Kind.STRING;
    } else if (c == '`') {
      return Kind.QUOTED_IDENTIFIER;
    } else if (Character.isDigit(c)) {
      return Kind.NUMBER;
    } else if (Character.isLetter(c) || c == '_') {
      return Kind.WORD;
    }
    return Kind.SYMBOL;
  }

  private static int tokenEnd(String sql, int start) {
    int i = start;
    switch (kindAt(sql, start)) {
      case SPACE -> {
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
          i++;
        }
        return i;
      }
      case COMMENT -> {
        int end = sql.startsWith("--", start) ? sql.indexOf('\n', start) : blockEnd(sql, start);
        return end < 0 ? sql.length() : end;
      }
      case STRING, QUOTED_IDENTIFIER -> {
        return quotedEnd(sql, start);
      }
      case NUMBER, WORD -> {
        while (i < sql.length()
            && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
          i++;
        }
        return i;
      }
      default -> {
        return start + 1;
      }
    }
  }

  private static int blockEnd(String sql, int start) {
    int end = sql.indexOf("*/", start + 2);
    return end < 0 ? -1 : end + 2;
  }

  /** The end of a quoted token; a doubled quote or (in strings) a backslash escapes a quote. */
  private static int quotedEnd(String sql, int start) {
    char quote = sql.charAt(start);
    int i = start + 1;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == '\\' && quote != '`') {
        i += 2;
      } else if (c == quote && i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
        i += 2;
      } else if (c == quote) {
        return i + 1;
      } else {
        i++;
      }
    }
    return sql.length();
  }
}
