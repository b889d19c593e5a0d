package io.basalt.options;

/** Renders the option reference of docs/configuration.md from {@link OptionRegistry}. */
public final class OptionDocs {
  /** The generated table sits between these markers in docs/configuration.md. */
  public static final String BEGIN = "<!-- BEGIN GENERATED OPTIONS -->";

  public static final String END = "<!-- END GENERATED OPTIONS -->";

  /** The generated list of Paimon's options Basalt does not implement sits between these. */
  public static final String PAIMON_BEGIN = "<!-- BEGIN GENERATED PAIMON OPTIONS -->";

  public static final String PAIMON_END = "<!-- END GENERATED PAIMON OPTIONS -->";

  private OptionDocs() {}

  /**
   * Paimon's options that Basalt does not implement, from {@link PaimonOptionKeys}, one list per
   * place Paimon defines them: a table keeps them, and Basalt ignores them.
   */
  public static String renderPaimonOnly() {
    java.util.Set<String> implemented = new java.util.HashSet<>();
    OptionRegistry.all().forEach(option -> implemented.add(option.key()));
    StringBuilder sb = new StringBuilder();
    for (PaimonOptionKeys.Scope scope : PaimonOptionKeys.Scope.values()) {
      java.util.List<String> keys = new java.util.ArrayList<>();
      for (String key : PaimonOptionKeys.keys()) {
        if (PaimonOptionKeys.scope(key).orElseThrow() == scope && !implemented.contains(key)) {
          keys.add("`" + key + "`");
        }
      }
      sb.append("- ")
          .append(scopeTitle(scope))
          .append(" (")
          .append(keys.size())
          .append("): ")
          .append(String.join(", ", keys))
          .append("\n");
    }
    return sb.toString();
  }

  private static String scopeTitle(PaimonOptionKeys.Scope scope) {
    return switch (scope) {
      case CORE -> "**Table options** (Paimon's `CoreOptions`) Basalt does not implement";
      case FLINK -> "**Flink-only options** (`FlinkConnectorOptions`)";
      case SPARK ->
          "**Options of Paimon's Spark connector** (`SparkConnectorOptions`) Basalt does"
              + " not implement";
      case FALLBACK -> "**Older spellings** Paimon still reads";
    };
  }

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
