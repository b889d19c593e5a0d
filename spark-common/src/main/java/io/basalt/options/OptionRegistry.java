package io.basalt.options;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/** Every table option Basalt knows, in one list: the source of docs/configuration.md. */
public final class OptionRegistry {
  private static final List<Class<?>> OPTION_CLASSES =
      List.of(
          TableOptions.class,
          FileCompressionOptions.class,
          ParquetOptions.class,
          WriteOptions.class,
          CompactionOptions.class,
          DynamicBucketOptions.class,
          CrossPartitionOptions.class,
          ReadOptions.class,
          ManifestOptions.class,
          PlanningOptions.class,
          CommitOptions.class,
          SnapshotOptions.class,
          TagOptions.class,
          PartitionOptions.class,
          MergeEngineOptions.class,
          RowTrackingOptions.class,
          BlobOptions.class,
          PostponeOptions.class,
          ChangelogOptions.class,
          ChangelogRetentionOptions.class,
          StreamOptions.class,
          UnreadableFileOptions.class,
          SchemaEvolutionOptions.class,
          LockOptions.class,
          MergeSchemaOptions.class);

  private OptionRegistry() {}

  /** All options, sorted by key. */
  public static List<ConfigOption<?>> all() {
    List<ConfigOption<?>> options = new ArrayList<>();
    for (Class<?> holder : OPTION_CLASSES) {
      for (Field field : holder.getFields()) {
        if (Modifier.isStatic(field.getModifiers())
            && ConfigOption.class.isAssignableFrom(field.getType())) {
          options.add(read(field));
        }
      }
    }
    options.sort(Comparator.comparing(ConfigOption::key));
    return Collections.unmodifiableList(options);
  }

  private static ConfigOption<?> read(Field field) {
    try {
      return (ConfigOption<?>) field.get(null);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Option constant " + field + " is not public", e);
    }
  }
}
