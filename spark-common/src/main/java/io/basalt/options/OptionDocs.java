package io.basalt.options;

/** Renders the option reference of docs/configuration.md from {@link OptionRegistry}. */
public final class OptionDocs {
  /** The generated table sits between these markers in docs/configuration.md. */
  public static final String BEGIN = "<!-- BEGIN GENERATED OPTIONS -->";

  public static final String END = "<!-- END GENERATED OPTIONS -->";

  private OptionDocs() {}

  /** The Markdown table of every option: key, default, type, description. */
  public static String render() {
    StringBuilder sb = new StringBuilder();
    sb.append("| Key | Default | Type | Description |\n");
    sb.append("|---|---|---|---|\n");
    for (ConfigOption<?> option : OptionRegistry.all()) {
      sb.append("| `")
          .append(option.key())
          .append("` | ")
          .append(renderDefault(option))
          .append(" | ")
          .append(option.typeName())
          .append(" | ")
          .append(option.description().replace("|", "\\|"))
          .append(" |\n");
    }
    return sb.toString();
  }

  private static String renderDefault(ConfigOption<?> option) {
    Object value = option.defaultValue();
    if (value == null) {
      return "(none)";
    }
    if ("MemorySize".equals(option.typeName())) {
      return "`" + bytes((Long) value) + "`";
    }
    if ("Duration".equals(option.typeName())) {
      return "`" + millis((Long) value) + "`";
    }
    return "`" + value + "`";
  }

  private static String bytes(long value) {
    if (value % (1L << 20) == 0) {
      return (value >> 20) + " mb";
    }
    if (value % (1L << 10) == 0) {
      return (value >> 10) + " kb";
    }
    return value + " b";
  }

  private static String millis(long value) {
    if (value % 3_600_000L == 0) {
      return (value / 3_600_000L) + " h";
    }
    if (value % 1000L == 0) {
      return (value / 1000L) + " s";
    }
    return value + " ms";
  }
}
