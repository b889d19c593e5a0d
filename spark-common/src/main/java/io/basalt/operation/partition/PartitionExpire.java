package io.basalt.operation.partition;

import io.basalt.data.BinaryRow;
import io.basalt.data.BinaryRowCodec;
import io.basalt.manifest.ManifestEntry;
import io.basalt.options.PartitionExpiration;
import io.basalt.options.PartitionOptions;
import io.basalt.options.TableOptions;
import io.basalt.snapshot.Snapshot;
import io.basalt.table.FileStoreTable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.annotation.Nullable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops the partitions whose time is older than {@code now - partition.expiration-time}, the oldest
 * first and at most {@code maxExpires}, in one OVERWRITE commit (as Paimon commits a partition
 * drop). A partition whose values hold no time in the configured form, or with a null value in the
 * pattern, never expires; it is logged once per run.
 */
public final class PartitionExpire {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionExpire.class);
  private static final DateTimeFormatter TIMESTAMP_TEXT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

  private final FileStoreTable table;
  private final PartitionExpiration settings;
  private final StructType partitionType;
  private final List<String> keys;

  /**
   * @param settings validated; must be {@link PartitionExpiration#enabled() enabled}
   */
  public PartitionExpire(FileStoreTable table, PartitionExpiration settings) {
    this.table = table;
    this.settings = settings;
    this.partitionType = table.partitionType();
    this.keys = List.of(partitionType.fieldNames());
  }

  /** An expired partition: its value, its time and its readable spec {@code k=v, k2=v2}. */
  record Expired(BinaryRow partition, LocalDateTime time, String spec) {}

  /**
   * Drops the expired partitions of the latest snapshot.
   *
   * @return their specs ({@code k=v, k2=v2}), oldest first; empty when none expired
   */
  public List<String> expire(long nowMillis) {
    Optional<Snapshot> latest = table.latestSnapshot();
    if (latest.isEmpty()) {
      return List.of();
    }
    List<Expired> expired = select(latest.get(), nowMillis);
    if (expired.isEmpty()) {
      return List.of();
    }
    Set<BinaryRow> partitions = new HashSet<>();
    List<String> specs = new ArrayList<>();
    for (Expired partition : expired) {
      partitions.add(partition.partition());
      specs.add(partition.spec());
    }
    table
        .newCommit("expire-partitions-" + UUID.randomUUID())
        .dropPartitionValues(partitions, Snapshot.BATCH_COMMIT_IDENTIFIER);
    LOG.info("Expired partitions of table {}: {}", table.name(), specs);
    return specs;
  }

  /** The expired partitions of {@code snapshot}, oldest first, at most {@code maxExpires}. */
  List<Expired> select(Snapshot snapshot, long nowMillis) {
    Map<BinaryRow, Long> newestFile = new HashMap<>();
    for (ManifestEntry entry : table.newScan().liveEntries(snapshot)) {
      Long created = entry.file().creationTimeMillis();
      newestFile.merge(entry.partition(), created == null ? Long.MIN_VALUE : created, Math::max);
    }
    long boundMillis = nowMillis - settings.expirationMillis();
    LocalDateTime bound = localTime(boundMillis);
    boolean byValues = PartitionOptions.VALUES_TIME.equals(settings.strategy());
    PartitionTimeExtractor extractor =
        new PartitionTimeExtractor(keys, settings.pattern(), settings.formatter());
    BinaryRowCodec codec = new BinaryRowCodec(partitionType);
    List<Expired> expired = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();
    for (Map.Entry<BinaryRow, Long> partition : newestFile.entrySet()) {
      List<String> values = valueTexts(codec.toRow(partition.getKey()));
      LocalDateTime time;
      if (byValues) {
        time = extractor.extract(values);
      } else {
        time = partition.getValue() == Long.MIN_VALUE ? null : localTime(partition.getValue());
      }
      if (time == null) {
        unreadable.add(spec(values));
      } else if (time.isBefore(bound)) {
        expired.add(new Expired(partition.getKey(), time, spec(values)));
      }
    }
    if (!unreadable.isEmpty()) {
      LOG.warn(
          "Partitions {} of table {} hold no time readable with '{}' = {} and '{}' = {}; they do"
              + " not expire. Drop them by hand, or use '{}' = '{}'.",
          unreadable,
          table.name(),
          PartitionOptions.PARTITION_TIMESTAMP_PATTERN.key(),
          settings.pattern(),
          PartitionOptions.PARTITION_TIMESTAMP_FORMATTER.key(),
          settings.formatter(),
          PartitionOptions.PARTITION_EXPIRATION_STRATEGY.key(),
          PartitionOptions.UPDATE_TIME);
    }
    expired.sort(Comparator.comparing(Expired::time).thenComparing(Expired::spec));
    return expired.size() > settings.maxExpires()
        ? expired.subList(0, settings.maxExpires())
        : expired;
  }

  private static LocalDateTime localTime(long epochMillis) {
    return LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneId.systemDefault());
  }

  /** {@code k=v, k2=v2}; a null value shows as the default partition name. */
  private String spec(List<String> values) {
    String nullName = table.options().get(TableOptions.PARTITION_DEFAULT_NAME);
    StringBuilder spec = new StringBuilder();
    for (int i = 0; i < keys.size(); i++) {
      spec.append(i == 0 ? "" : ", ").append(keys.get(i)).append('=');
      spec.append(values.get(i) == null ? nullName : values.get(i));
    }
    return spec.toString();
  }

  /**
   * The partition values as text: dates as {@code yyyy-MM-dd}, timestamps as {@code yyyy-MM-dd
   * HH:mm:ss} (UTC wall clock for instants), anything else as its string form; null stays null.
   */
  private List<String> valueTexts(InternalRow row) {
    List<String> texts = new ArrayList<>(keys.size());
    StructField[] fields = partitionType.fields();
    for (int i = 0; i < fields.length; i++) {
      texts.add(
          row.isNullAt(i) ? null : text(row.get(i, fields[i].dataType()), fields[i].dataType()));
    }
    return texts;
  }

  @Nullable
  private static String text(Object value, DataType type) {
    if (type instanceof DateType) {
      return LocalDate.ofEpochDay((Integer) value).toString();
    }
    if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      long micros = (Long) value;
      LocalDateTime time =
          LocalDateTime.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L),
              (int) Math.floorMod(micros, 1_000_000L) * 1000,
              ZoneOffset.UTC);
      return TIMESTAMP_TEXT.format(time);
    }
    return String.valueOf(value);
  }
}
