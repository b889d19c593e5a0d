package io.basalt.operation.scan;

import io.basalt.BasaltException;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestEntry.FileIdentifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Folds manifest entries, in manifest order, into the set of live files: an ADD inserts a file, a
 * DELETE removes it (or waits for the ADD when it comes first). Holds one entry per live file:
 * metadata, never data.
 */
public final class LiveFiles {
  private final Map<FileIdentifier, ManifestEntry> live = new LinkedHashMap<>();
  private final Map<FileIdentifier, ManifestEntry> pendingDeletes = new LinkedHashMap<>();
  private final String context;

  /**
   * @param context named in errors, e.g. the snapshot being read
   */
  public LiveFiles(String context) {
    this.context = context;
  }

  public void apply(ManifestEntry entry) {
    FileIdentifier id = entry.identifier();
    if (entry.kind() == FileKind.ADD) {
      if (pendingDeletes.remove(id) != null) {
        return;
      }
      if (live.putIfAbsent(id, entry) != null) {
        throw new BasaltException(
            "Corrupt table metadata in "
                + context
                + ": file "
                + entry.file().fileName()
                + " of bucket "
                + entry.bucket()
                + " is added twice");
      }
    } else if (live.remove(id) == null) {
      pendingDeletes.put(id, entry);
    }
  }

  /** The live files, as ADD entries, in the order they were added. */
  public List<ManifestEntry> entries() {
    return new ArrayList<>(live.values());
  }

  /** DELETE entries whose file was never added: present only in corrupt or merged-away history. */
  public Set<FileIdentifier> unmatchedDeletes() {
    return Set.copyOf(pendingDeletes.keySet());
  }

  /**
   * The DELETE entries whose file was not added in what was folded. When only some manifests are
   * folded (a partial merge), these must be kept: their ADD lives in another manifest.
   */
  public List<ManifestEntry> unmatchedDeleteEntries() {
    return new ArrayList<>(pendingDeletes.values());
  }
}
