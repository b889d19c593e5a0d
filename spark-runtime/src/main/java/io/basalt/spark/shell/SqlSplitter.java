package io.basalt.spark.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL script text into statements at semicolons that are outside quotes and comments.
 *
 * <p>Single-quoted and double-quoted literals (with backslash escapes, as Spark's lexer reads them)
 * and back-quoted identifiers are copied verbatim, so a {@code ;} inside them does not end a
 * statement. {@code --} line comments and {@code /* *}{@code /} block comments (nested, as Spark
 * allows) are removed; each is replaced by whitespace so the tokens around it stay apart. Hint
 * comments ({@code /*+ ... *}{@code /}) are part of Spark's syntax and are kept. Statements are
 * trimmed and blank ones are dropped.
 *
 * <p>The class is stateless; every method is thread-safe.
 */
final class SqlSplitter {

  /**
   * The outcome of scanning a piece of text.
   *
   * @param statements the complete statements (terminated by {@code ;}), cleaned and trimmed
   * @param remainder the raw text after the last terminating {@code ;}
   * @param tail the remainder cleaned like a statement (empty when it holds only comments)
   * @param open whether the text ends inside a quote or a comment
   */
  record Result(List<String> statements, String remainder, String tail, boolean open) {
    Result {
      statements = List.copyOf(statements);
    }

    /** Whether the remainder starts a statement that a later {@code ;} would complete. */
    boolean pending() {
      return open || !tail.isEmpty();
    }
  }

  private enum State {
    CODE,
    SINGLE_QUOTE,
    DOUBLE_QUOTE,
    BACK_QUOTE,
    LINE_COMMENT,
    BLOCK_COMMENT,
    HINT
  }

  private SqlSplitter() {}

  /**
   * Returns every statement in {@code script}, including a last one that has no terminating {@code
   * ;}. Never returns blank statements.
   */
  static List<String> split(String script) {
    Result result = scan(script);
    List<String> statements = new ArrayList<>(result.statements());
    if (!result.tail().isEmpty()) {
      statements.add(result.tail());
    }
    return statements;
  }

  /**
   * Returns the complete statements in {@code text} and the unterminated text after them, for
   * callers that read a script piece by piece (the interactive prompt).
   */
  static Result scan(String text) {
    return new Scanner(text).run();
  }

  /** Single-use state machine over one input string. */
  private static final class Scanner {
    private final String text;
    private final List<String> statements = new ArrayList<>();
    private final StringBuilder current = new StringBuilder();
    private State state = State.CODE;
    private int commentDepth;
    private int statementStart;
    private int pos;

    Scanner(String text) {
      this.text = text;
    }

    Result run() {
      while (pos < text.length()) {
        char c = text.charAt(pos);
        switch (state) {
          case CODE -> code(c);
          case SINGLE_QUOTE -> quoted(c, '\'', true);
          case DOUBLE_QUOTE -> quoted(c, '"', true);
          case BACK_QUOTE -> quoted(c, '`', false);
          case LINE_COMMENT -> lineComment(c);
          case BLOCK_COMMENT -> blockComment(c);
          case HINT -> hint(c);
        }
      }
      return new Result(
          statements,
          text.substring(statementStart),
          current.toString().strip(),
          state != State.CODE);
    }

    private void code(char c) {
      if (c == ';') {
        String statement = current.toString().strip();
        if (!statement.isEmpty()) {
          statements.add(statement);
        }
        current.setLength(0);
        pos++;
        statementStart = pos;
      } else if (startsWith("--")) {
        state = State.LINE_COMMENT;
        pos += 2;
      } else if (startsWith("/*+")) {
        state = State.HINT;
        current.append("/*+");
        pos += 3;
      } else if (startsWith("/*")) {
        state = State.BLOCK_COMMENT;
        commentDepth = 1;
        pos += 2;
      } else {
        if (c == '\'') {
          state = State.SINGLE_QUOTE;
        } else if (c == '"') {
          state = State.DOUBLE_QUOTE;
        } else if (c == '`') {
          state = State.BACK_QUOTE;
        }
        current.append(c);
        pos++;
      }
    }

    private void quoted(char c, char quote, boolean backslashEscapes) {
      current.append(c);
      pos++;
      if (backslashEscapes && c == '\\' && pos < text.length()) {
        // the escaped character can be the quote itself; it never closes the literal
        current.append(text.charAt(pos));
        pos++;
      } else if (c == quote) {
        // a doubled quote closes and reopens the literal, which splits the same way
        state = State.CODE;
      }
    }

    private void lineComment(char c) {
      pos++;
      if (c == '\n') {
        current.append('\n');
        state = State.CODE;
      }
    }

    private void blockComment(char c) {
      if (startsWith("/*")) {
        commentDepth++;
        pos += 2;
      } else if (startsWith("*/")) {
        commentDepth--;
        pos += 2;
        if (commentDepth == 0) {
          current.append(' ');
          state = State.CODE;
        }
      } else {
        pos++;
      }
    }

    private void hint(char c) {
      if (startsWith("*/")) {
        current.append("*/");
        pos += 2;
        state = State.CODE;
      } else {
        current.append(c);
        pos++;
      }
    }

    private boolean startsWith(String token) {
      return text.startsWith(token, pos);
    }
  }
}
