package io.basalt.spark.shell;

import java.io.PrintStream;
import java.util.List;

/** Prints rendered result rows as an aligned table or as TSV. */
final class ResultPrinter {
  private final PrintStream out;
  private final OutputFormat format;

  ResultPrinter(PrintStream out, OutputFormat format) {
    this.out = out;
    this.format = format;
  }

  /** Prints {@code rows} in this printer's format. */
  void print(RenderedRows rows) {
    switch (format) {
      case TABLE -> printTable(rows);
      case TSV -> printTsv(rows);
    }
  }

  /** Prints multi-line text values as they are, one after another, in either format. */
  void printText(List<String> values) {
    values.forEach(out::println);
  }

  /** Reports a statement that produced no result columns, such as DDL or INSERT. */
  void printNoResult() {
    if (format == OutputFormat.TABLE) {
      out.println("OK");
    }
  }

  private void printTsv(RenderedRows rows) {
    // cells come with tabs and newlines escaped, so joining with tabs is unambiguous
    out.println(String.join("\t", rows.header()));
    for (List<String> row : rows.rows()) {
      out.println(String.join("\t", row));
    }
  }

  private void printTable(RenderedRows rows) {
    int[] widths = columnWidths(rows);
    String border = border(widths);
    out.println(border);
    out.println(line(rows.header(), widths));
    out.println(border);
    for (List<String> row : rows.rows()) {
      out.println(line(row, widths));
    }
    if (!rows.rows().isEmpty()) {
      out.println(border);
    }
    int count = rows.rows().size();
    out.println(count == 1 ? "(1 row)" : "(" + count + " rows)");
  }

  private static int[] columnWidths(RenderedRows rows) {
    int[] widths = new int[rows.header().size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = width(rows.header().get(i));
      for (List<String> row : rows.rows()) {
        widths[i] = Math.max(widths[i], width(row.get(i)));
      }
    }
    return widths;
  }

  private static String border(int[] widths) {
    StringBuilder sb = new StringBuilder("+");
    for (int width : widths) {
      sb.append("-".repeat(width + 2)).append('+');
    }
    return sb.toString();
  }

  private static String line(List<String> cells, int[] widths) {
    StringBuilder sb = new StringBuilder("|");
    for (int i = 0; i < widths.length; i++) {
      String cell = cells.get(i);
      sb.append(' ').append(cell);
      sb.append(" ".repeat(widths[i] - width(cell) + 1));
      sb.append('|');
    }
    return sb.toString();
  }

  /** Display width in terminal columns, counting code points rather than UTF-16 units. */
  private static int width(String s) {
    return s.codePointCount(0, s.length());
  }
}
