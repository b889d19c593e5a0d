package io.basalt.operation.commit;

import io.basalt.data.BinaryRow;
import io.basalt.manifest.DataFileMeta;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.table.CommitMessage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Turns the writers' commit messages into manifest entries: the changes a snapshot records. */
final class CommitChanges {
  private CommitChanges() {}

  /** The new files of {@code messages}, as ADD entries. */
  static List<ManifestEntry> adds(List<CommitMessage> messages) {
    List<ManifestEntry> entries = new ArrayList<>();
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.newFiles()) {
        entries.add(entry(FileKind.ADD, message, file));
      }
    }
    return entries;
  }

  /** The changelog files of {@code messages}, as ADD entries. */
  static List<ManifestEntry> changelog(List<CommitMessage> messages) {
    List<ManifestEntry> entries = new ArrayList<>();
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.changelogFiles()) {
        entries.add(entry(FileKind.ADD, message, file));
      }
    }
    return entries;
  }

  /** The changelog files the compactions of {@code messages} wrote, as ADD entries. */
  static List<ManifestEntry> compactChangelog(List<CommitMessage> messages) {
    List<ManifestEntry> entries = new ArrayList<>();
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.compactChangelogFiles()) {
        entries.add(entry(FileKind.ADD, message, file));
      }
    }
    return entries;
  }

  /** The compactions of {@code messages}: DELETE of what they read, ADD of what they wrote. */
  /** {@code first} then {@code second}, in one new list. */
  static List<ManifestEntry> concat(List<ManifestEntry> first, List<ManifestEntry> second) {
    List<ManifestEntry> all = new ArrayList<>(first.size() + second.size());
    all.addAll(first);
    all.addAll(second);
    return all;
  }

  static List<ManifestEntry> compactions(List<CommitMessage> messages) {
    List<ManifestEntry> entries = new ArrayList<>();
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.compactBefore()) {
        entries.add(entry(FileKind.DELETE, message, file));
      }
      for (DataFileMeta file : message.compactAfter()) {
        entries.add(entry(FileKind.ADD, message, file));
      }
    }
    return entries;
  }

  private static ManifestEntry entry(FileKind kind, CommitMessage message, DataFileMeta file) {
    return new ManifestEntry(
        kind, message.partition(), message.bucket(), message.totalBuckets(), file);
  }

  static boolean hasCompaction(List<CommitMessage> messages) {
    return messages.stream().anyMatch(CommitMessage::hasCompaction);
  }

  static boolean hasIndexChanges(List<CommitMessage> messages) {
    for (CommitMessage message : messages) {
      if (!message.newIndexFiles().isEmpty() || !message.deletedIndexFiles().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** Whether every file the compactions wrote sits on {@code maxLevel}. */
  static boolean isFullCompaction(List<CommitMessage> messages, int maxLevel) {
    for (CommitMessage message : messages) {
      for (DataFileMeta file : message.compactAfter()) {
        if (file.level() != maxLevel) {
          return false;
        }
      }
    }
    return true;
  }

  /** The partitions {@code entries} touch, in first-seen order. */
  static Set<BinaryRow> partitions(List<ManifestEntry> entries) {
    Set<BinaryRow> partitions = new LinkedHashSet<>();
    for (ManifestEntry entry : entries) {
      partitions.add(entry.partition());
    }
    return partitions;
  }

  /** The live files of a snapshot, turned into the DELETE entries that remove them. */
  static List<ManifestEntry> deletesOf(List<ManifestEntry> live) {
    List<ManifestEntry> deletes = new ArrayList<>(live.size());
    for (ManifestEntry entry : live) {
      deletes.add(entry.asDelete());
    }
    return deletes;
  }
}
