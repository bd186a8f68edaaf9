package io.entryrange.jmh;

/**
 * How the benchmark tables' data files are spread over manifests. Both are one append commit, so
 * they differ only in manifest size: a plan task over small manifests names more manifests, and a
 * re-plan opens more files.
 */
enum Layout implements Labelled {
  /** Iceberg's default 8 MB manifest target: two manifests per 100,000 files. */
  LARGE_MANIFESTS("large-manifests", 8L * 1024 * 1024),
  /** A 64 KiB target, the many-small-manifests shape of a table that is rarely compacted. */
  SMALL_MANIFESTS("small-manifests", 64L * 1024);

  private final String label;
  private final long manifestTargetBytes;

  Layout(String label, long manifestTargetBytes) {
    this.label = label;
    this.manifestTargetBytes = manifestTargetBytes;
  }

  @Override
  public String label() {
    return label;
  }

  long manifestTargetBytes() {
    return manifestTargetBytes;
  }

  static Layout of(String label) {
    return Labelled.parse(Layout.class, label);
  }
}
