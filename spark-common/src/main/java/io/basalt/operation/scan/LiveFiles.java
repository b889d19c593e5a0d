package io.basalt.operation.scan;

import io.basalt.BasaltException;
import io.basalt.manifest.FileKind;
import io.basalt.manifest.ManifestEntry;
import io.basalt.manifest.ManifestEntry.FileIdentifier;
import java.util.ArrayList;
import java.util.HashSet;
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
  private final Set<FileIdentifier> pendingDeletes = new HashSet<>();
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
      if (pendingDeletes.remove(id)) {
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
      pendingDeletes.add(id);
    }
  }

  /** The live files, as ADD entries, in the order they were added. */
  public List<ManifestEntry> entries() {
    return new ArrayList<>(live.values());
  }

  /** DELETE entries whose file was never added: present only in corrupt or merged-away history. */
  public Set<FileIdentifier> unmatchedDeletes() {
    return Set.copyOf(pendingDeletes);
  }
}
