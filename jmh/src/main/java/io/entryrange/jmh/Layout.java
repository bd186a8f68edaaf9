package io.entryrange.jmh;

/**
 * How the benchmark tables' data files are spread over manifests, and whether they carry deletes.
 * The copy-on-write layouts are one append commit and differ only in manifest size: a plan task
 * over small manifests names more manifests, and a re-plan opens more files. The merge-on-read
 * layouts add one row-delta commit of file-scoped position deletes on 1 or 10 of every 100 data
 * files, in the default manifest size.
 */
enum Layout implements Labelled {
  /** Iceberg's default 8 MB manifest target: two manifests per 100,000 files. */
  LARGE_MANIFESTS("large-manifests", 8L * 1024 * 1024),
  /** A 64 KiB target, the many-small-manifests shape of a table that is rarely compacted. */
  SMALL_MANIFESTS("small-manifests", 64L * 1024),
  /** Large manifests, and position deletes on 1 of every 100 data files. */
  MERGE_ON_READ_1("merge-on-read-1pct", 8L * 1024 * 1024, 1),
  /** Large manifests, and position deletes on 10 of every 100 data files. */
  MERGE_ON_READ_10("merge-on-read-10pct", 8L * 1024 * 1024, 10),
  /** A table the report did not generate ({@link CatalogTable}): its layout is its writer's. */
  CATALOG("catalog", 0);

  private final String label;
  private final long manifestTargetBytes;
  private final int deletesPer100Files;

  Layout(String label, long manifestTargetBytes) {
    this(label, manifestTargetBytes, 0);
  }

  Layout(String label, long manifestTargetBytes, int deletesPer100Files) {
    this.label = label;
    this.manifestTargetBytes = manifestTargetBytes;
    this.deletesPer100Files = deletesPer100Files;
  }

  /** Data files per 100 that get a delete file; 0 for copy-on-write layouts. */
  int deletesPer100Files() {
    return deletesPer100Files;
  }

  boolean isMergeOnRead() {
    return deletesPer100Files > 0;
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
