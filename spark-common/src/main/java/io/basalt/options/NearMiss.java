package io.basalt.options;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds the known key a misspelt one was meant to be: the same key written with {@code _} for
 * {@code -} or in other case, or a key a small edit distance away ({@code deletion-vector.enabled}
 * for {@code deletion-vectors.enabled}). Short keys allow fewer edits, so that a user's own short
 * property is not mistaken for an option.
 */
public final class NearMiss {
  private NearMiss() {}

  /**
   * The candidate {@code key} most likely misspells, or empty when none is close. A key that is
   * itself a candidate has no near miss.
   */
  public static Optional<String> closest(String key, Collection<String> candidates) {
    if (candidates.contains(key)) {
      return Optional.empty();
    }
    String normalized = normalize(key);
    int allowed = allowedEdits(normalized);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      if (candidate.indexOf('#') >= 0) {
        continue; // patterns are not spellings
      }
      String other = normalize(candidate);
      if (Math.abs(other.length() - normalized.length()) > allowed) {
        continue;
      }
      int distance = distance(normalized, other);
      if (distance <= allowed
          && (distance < bestDistance
              || (distance == bestDistance && candidate.compareTo(best) < 0))) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Lower case, with '_' and blanks read as '-'. */
  static String normalize(String key) {
    return key.trim().toLowerCase(Locale.ROOT).replace('_', '-').replace(' ', '-');
  }

  private static int allowedEdits(String normalized) {
    if (normalized.length() <= 4) {
      return 0;
    }
    return normalized.length() <= 8 ? 1 : 2;
  }

  /** Edit distance counting insertions, deletions, substitutions and adjacent swaps. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          best = Math.min(best, d[i - 2][j - 2] + 1);
        }
        d[i][j] = best;
      }
    }
    return d[a.length()][b.length()];
  }
}
