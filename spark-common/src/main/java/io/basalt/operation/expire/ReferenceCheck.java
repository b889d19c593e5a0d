package io.basalt.operation.expire;

import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestFileMeta;
import io.basalt.manifest.ManifestFiles;
import io.basalt.snapshot.Snapshot;
import io.basalt.utils.CloseableIterator;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import org.apache.hadoop.fs.Path;

/**
 * Finds which files an expiration would delete are still live in a tag or a branch, reading as
 * little as it can, as Paimon does:
 *
 * <ul>
 *   <li>A file deleted by snapshot {@code s} was live in every snapshot from the one that added it
 *       to {@code s - 1}. If a tag of this branch at {@code t < s} holds it, so does the newest tag
 *       below {@code s}. So of the branch's own tags only the newest below each expired delta
 *       matters: the newest tag below the first deleting snapshot and the tags inside the expired
 *       range. Tags at or after the range's end cannot hold a deleted file, unless they belong to
 *       another history (left by an interrupted rollback): those are checked like other branches.
 *       (Like Paimon, this trusts that tags below the range belong to this history.)
 *   <li>Each manifest list and manifest is read at most once per expiration, however many
 *       references share it, and only the candidates' entries are kept.
 * </ul>
 */
final class ReferenceCheck {
  private final ManifestFiles manifests;
  private final Map<String, List<ManifestFileMeta>> lists = new HashMap<>();
  private final Map<String, Map<String, Integer>> balances = new HashMap<>();

  ReferenceCheck(ManifestFiles manifests) {
    this.manifests = manifests;
  }

  /**
   * The references to check when snapshots {@code first} (inclusive) to {@code end} (exclusive)
   * expire and the deltas of {@code first + 1} to {@code end} delete files.
   *
   * @param all every reference (this branch's tags, other branches' snapshots and tags)
   * @param ownTags the tags of this branch (also in {@code all})
   * @param snapshotOf this branch's snapshot of an id, or null when there is none
   */
  static List<Snapshot> toCheck(
      List<Snapshot> all,
      Collection<Snapshot> ownTags,
      long first,
      long end,
      LongFunction<Snapshot> snapshotOf) {
    Set<Key> own = new HashSet<>();
    long newestBelowFirst = Long.MIN_VALUE;
    for (Snapshot tag : ownTags) {
      own.add(Key.of(tag));
      if (tag.id() <= first) {
        newestBelowFirst = Math.max(newestBelowFirst, tag.id());
      }
    }
    List<Snapshot> result = new ArrayList<>();
    Set<Key> seen = new HashSet<>();
    for (Snapshot reference : all) {
      Key key = Key.of(reference);
      if (!seen.add(key)) {
        continue; // the same snapshot tagged twice, or a branch made from a tag
      }
      if (!own.contains(key)) {
        result.add(reference);
      } else if (reference.id() >= newestBelowFirst && reference.id() < end) {
        result.add(reference);
      } else if (reference.id() >= end && !inHistory(reference, snapshotOf)) {
        result.add(reference);
      }
    }
    return result;
  }

  /** Whether tag {@code tag} at or after the range's end is the branch's snapshot of its id. */
  private static boolean inHistory(Snapshot tag, LongFunction<Snapshot> snapshotOf) {
    Snapshot same = snapshotOf.apply(tag.id());
    return same != null && Key.of(same).equals(Key.of(tag));
  }

  /**
   * Removes from {@code candidates} (by file name) every file live in one of {@code references}.
   */
  void keepReferenced(List<Snapshot> references, Map<String, Path> candidates) {
    for (Snapshot reference : references) {
      if (candidates.isEmpty()) {
        return;
      }
      Map<String, Integer> balance = new HashMap<>();
      for (String list : List.of(reference.baseManifestList(), reference.deltaManifestList())) {
        for (ManifestFileMeta meta : list(list)) {
          balanceOf(meta.fileName(), candidates)
              .forEach((name, count) -> balance.merge(name, count, Integer::sum));
        }
      }
      balance.forEach(
          (name, count) -> {
            if (count > 0) {
              candidates.remove(name);
            }
          });
    }
  }

  /** The rows of manifest list {@code name}, read once per expiration. */
  List<ManifestFileMeta> list(String name) {
    return lists.computeIfAbsent(name, manifests::readManifestList);
  }

  /**
   * ADDs minus DELETEs per candidate in manifest {@code name}. Cached: candidates only shrink, so a
   * cached count may name files no longer candidates, which {@link #keepReferenced} ignores.
   */
  private Map<String, Integer> balanceOf(String name, Map<String, Path> candidates) {
    Map<String, Integer> cached = balances.get(name);
    if (cached != null) {
      return cached;
    }
    Map<String, Integer> balance = new HashMap<>();
    try (CloseableIterator<ManifestEntry> it = manifests.readManifest(name)) {
      while (it.hasNext()) {
        ManifestEntry entry = it.next();
        String file = entry.file().fileName();
        if (candidates.containsKey(file)) {
          balance.merge(file, entry.kind() == FileKind.ADD ? 1 : -1, Integer::sum);
        }
      }
    }
    balances.put(name, balance);
    return balance;
  }

  /** What makes two snapshot files the same snapshot. */
  private record Key(long id, String baseManifestList, String deltaManifestList) {
    static Key of(Snapshot snapshot) {
      return new Key(snapshot.id(), snapshot.baseManifestList(), snapshot.deltaManifestList());
    }
  }
}
