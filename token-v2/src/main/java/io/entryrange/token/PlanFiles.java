package io.entryrange.token;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The storage objects one plan reads, exactly: the data and delete files of every task it answers,
 * inline or through its plan tasks. What a signer asks of a plan ("is this object in plan X") and
 * what bounded prefix scopes are cut from.
 *
 * <p>Why sorted UTF-8 suffixes in one array rather than a hash set of strings: a plan of 100,000
 * files is held per replica for as long as its credentials live, and a set of strings costs about
 * 180 bytes a file where this costs the bytes of each location after the plan's common root plus 4
 * (an offset); a lookup is a binary search of about 17 byte comparisons at that size, measured by
 * the report's {@code credential-scope} row. Exact: no hashing, so no false positive. Immutable
 * and thread-safe.
 */
public final class PlanFiles {
  private final String root;
  private final byte[] suffixes;
  private final int[] offsets;

  private PlanFiles(String root, byte[] suffixes, int[] offsets) {
    this.root = root;
    this.suffixes = suffixes;
    this.offsets = offsets;
  }

  /** The set of {@code locations}, duplicates counted once. */
  public static PlanFiles of(Collection<String> locations) {
    Preconditions.checkArgument(locations != null, "Invalid plan files: null");
    String root = commonPrefix(locations);
    byte[][] keys = new byte[locations.size()][];
    int count = 0;
    for (String location : locations) {
      Preconditions.checkArgument(location != null, "Invalid plan file location: null");
      keys[count++] = location.substring(root.length()).getBytes(StandardCharsets.UTF_8);
    }
    Arrays.sort(keys, Arrays::compareUnsigned);
    int unique = 0;
    long bytes = 0;
    for (int i = 0; i < count; i += 1) {
      if (unique == 0 || !Arrays.equals(keys[unique - 1], keys[i])) {
        keys[unique++] = keys[i];
        bytes += keys[i].length;
      }
    }
    Preconditions.checkArgument(
        bytes <= Integer.MAX_VALUE, "Invalid plan files: %s bytes of locations", bytes);
    byte[] suffixes = new byte[(int) bytes];
    int[] offsets = new int[unique + 1];
    int at = 0;
    for (int i = 0; i < unique; i += 1) {
      offsets[i] = at;
      System.arraycopy(keys[i], 0, suffixes, at, keys[i].length);
      at += keys[i].length;
    }
    offsets[unique] = at;
    return new PlanFiles(root, suffixes, offsets);
  }

  /** How many objects. */
  public int size() {
    return offsets.length - 1;
  }

  /** Whether {@code location} is one of the plan's objects, compared exactly as written. */
  public boolean contains(String location) {
    if (location == null || !location.startsWith(root) || size() == 0) {
      return false;
    }
    byte[] key = location.substring(root.length()).getBytes(StandardCharsets.UTF_8);
    int low = 0;
    int high = size() - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      int order =
          Arrays.compareUnsigned(suffixes, offsets[mid], offsets[mid + 1], key, 0, key.length);
      if (order == 0) {
        return true;
      } else if (order < 0) {
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return false;
  }

  /** Heap this set holds, as a cache weighs it. */
  public long weightBytes() {
    return 64L + 2L * root.length() + suffixes.length + 4L * offsets.length;
  }

  /** Every location, in order. */
  List<String> locations() {
    List<String> locations = new ArrayList<>(size());
    for (int i = 0; i < size(); i += 1) {
      locations.add(
          root
              + new String(
                  suffixes, offsets[i], offsets[i + 1] - offsets[i], StandardCharsets.UTF_8));
    }
    return locations;
  }

  /**
   * At most {@code max} directory prefixes that cover every object of the plan, as deep as that
   * bound allows: each object's own directory (a partition directory, under a partition-aligned
   * policy) when there are few enough, else their common ancestors, level by level, up to the
   * table's first level (its {@code data/} directory), never above it: a prefix never covers the
   * directory of {@code metadataLocation} (metadata files, manifest lists, manifests) nor another
   * table's location. An object outside the table's location is covered by its own directory at
   * most. Empty when no such set of {@code max} prefixes exists: the plan then can only be scoped
   * exactly ({@link #contains}).
   *
   * @param tableLocation the table's location, without a trailing slash
   * @param metadataLocation the table's current metadata file
   */
  public List<String> prefixes(String tableLocation, String metadataLocation, int max) {
    Preconditions.checkArgument(max > 0, "Invalid max prefixes: %s", max);
    String table = tableLocation.endsWith("/") ? tableLocation : tableLocation + "/";
    String metadataDir = directory(metadataLocation);
    List<String> dirs = new ArrayList<>(new TreeSet<>(directories()));
    int deepest = 0;
    for (String dir : dirs) {
      deepest = Math.max(deepest, slashes(dir));
    }
    for (int level = deepest; level >= 0; level -= 1) {
      TreeSet<String> cut = new TreeSet<>();
      for (String dir : dirs) {
        cut.add(truncated(dir, level, table));
      }
      List<String> prefixes = outermost(cut);
      if (prefixes.size() <= max) {
        return prefixes.stream().anyMatch(metadataDir::startsWith) ? List.of() : prefixes;
      }
    }
    return List.of();
  }

  private List<String> directories() {
    List<String> dirs = new ArrayList<>();
    String previous = null;
    for (String location : locations()) {
      String dir = directory(location);
      if (!dir.equals(previous)) {
        dirs.add(dir);
        previous = dir;
      }
    }
    return dirs;
  }

  /**
   * {@code dir} cut after its {@code level}-th slash, but never above the table's first level for
   * a directory inside the table, nor above itself for one outside it.
   */
  private static String truncated(String dir, int level, String table) {
    String floor;
    if (dir.startsWith(table) && dir.length() > table.length()) {
      floor = dir.substring(0, dir.indexOf('/', table.length()) + 1);
    } else {
      floor = dir;
    }
    int at = -1;
    for (int i = 0; i < level; i += 1) {
      at = dir.indexOf('/', at + 1);
      if (at < 0) {
        return dir;
      }
    }
    String cut = dir.substring(0, at + 1);
    return cut.length() < floor.length() ? floor : cut;
  }

  /** The sorted prefixes with those under another of them dropped. */
  private static List<String> outermost(TreeSet<String> sorted) {
    List<String> kept = new ArrayList<>();
    for (String prefix : sorted) {
      if (kept.isEmpty() || !prefix.startsWith(kept.get(kept.size() - 1))) {
        kept.add(prefix);
      }
    }
    return kept;
  }

  private static int slashes(String text) {
    int count = 0;
    for (int i = 0; i < text.length(); i += 1) {
      if (text.charAt(i) == '/') {
        count += 1;
      }
    }
    return count;
  }

  private static String directory(String location) {
    return location.substring(0, location.lastIndexOf('/') + 1);
  }

  private static String commonPrefix(Collection<String> locations) {
    String prefix = null;
    for (String location : locations) {
      if (location == null) {
        continue;
      }
      if (prefix == null) {
        prefix = location;
      } else {
        int same = 0;
        int limit = Math.min(prefix.length(), location.length());
        while (same < limit && prefix.charAt(same) == location.charAt(same)) {
          same += 1;
        }
        prefix = prefix.substring(0, same);
      }
    }
    // cut at a character boundary that keeps surrogate pairs whole
    if (prefix == null) {
      return "";
    }
    int end = prefix.length();
    if (end > 0 && Character.isHighSurrogate(prefix.charAt(end - 1))) {
      end -= 1;
    }
    return prefix.substring(0, end);
  }
}
