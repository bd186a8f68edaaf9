package io.entryrange.token;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A plan's objects against a hash set of the same strings, on generated plans: membership is
 * exact for members and for near misses (one character more, one less, another case, a
 * directory); prefixes cover every member, stay within their bound, never cover the metadata
 * directory or another table, and are partition directories when few enough.
 */
class PlanFilesTest {
  private static final String TABLE = "s3://bucket/wh/db/events";
  private static final String METADATA = TABLE + "/metadata/00003-abc.metadata.json";

  @Test
  void membershipIsExactlyTheSetsOnGeneratedPlans() {
    for (long seed = 1; seed <= 40; seed += 1) {
      SplittableRandom random = new SplittableRandom(seed);
      List<String> locations = plan(random, 1 + random.nextInt(300), 1 + random.nextInt(40));
      Set<String> expected = new HashSet<>(locations);
      PlanFiles files = PlanFiles.of(locations);
      assertThat(files.size()).as("seed %s", seed).isEqualTo(expected.size());
      assertThat(new HashSet<>(files.locations())).isEqualTo(expected);
      for (String member : expected) {
        assertThat(files.contains(member)).as("seed %s: %s", seed, member).isTrue();
        for (String nearMiss :
            List.of(
                member + "x",
                member.substring(0, member.length() - 1),
                member.toUpperCase(java.util.Locale.ROOT),
                member.substring(0, member.lastIndexOf('/') + 1),
                TABLE + "2" + member.substring(TABLE.length()))) {
          assertThat(files.contains(nearMiss))
              .as("seed %s: %s", seed, nearMiss)
              .isEqualTo(expected.contains(nearMiss));
        }
      }
      for (int probe = 0; probe < 200; probe += 1) {
        String other = plan(random, 1, 60).get(0);
        assertThat(files.contains(other)).isEqualTo(expected.contains(other));
      }
      assertThat(files.contains(METADATA)).isFalse();
      assertThat(files.contains(null)).isFalse();
    }
  }

  @Test
  void prefixesCoverEveryObjectWithinTheBoundAndNeverMetadataOrAnotherTable() {
    for (long seed = 1; seed <= 40; seed += 1) {
      SplittableRandom random = new SplittableRandom(seed);
      int partitions = 1 + random.nextInt(60);
      List<String> locations = plan(random, 1 + random.nextInt(200), partitions);
      int max = 1 + random.nextInt(20);
      List<String> prefixes = PlanFiles.of(locations).prefixes(TABLE, METADATA, max);
      assertThat(prefixes).as("seed %s", seed).isNotEmpty().hasSizeLessThanOrEqualTo(max);
      for (String location : locations) {
        assertThat(prefixes.stream().anyMatch(location::startsWith))
            .as("seed %s: %s covered by %s", seed, location, prefixes)
            .isTrue();
      }
      for (String prefix : prefixes) {
        assertThat(prefix).endsWith("/").startsWith(TABLE + "/data/");
        assertThat(METADATA).doesNotStartWith(prefix);
        assertThat(TABLE + "2/data/x.parquet").doesNotStartWith(prefix);
      }
      long directories = locations.stream().map(l -> l.substring(0, l.lastIndexOf('/') + 1)).distinct().count();
      if (directories <= max) {
        assertThat(prefixes).as("seed %s: each object's own directory", seed).hasSize((int) directories);
      }
    }
  }

  @Test
  void aPartitionAlignedPlanIsItsPartitionDirectory() {
    List<String> eu =
        List.of(
            TABLE + "/data/region=eu-west/day=1/a.parquet",
            TABLE + "/data/region=eu-west/day=2/b.parquet",
            TABLE + "/data/region=eu-west/day=2/c.parquet");
    assertThat(PlanFiles.of(eu).prefixes(TABLE, METADATA, 1))
        .containsExactly(TABLE + "/data/region=eu-west/");
    assertThat(PlanFiles.of(eu).prefixes(TABLE, METADATA, 2))
        .containsExactly(TABLE + "/data/region=eu-west/day=1/", TABLE + "/data/region=eu-west/day=2/");
  }

  @Test
  void aPlanThatCannotAvoidMetadataOrFitTheBoundHasNoPrefixes() {
    assertThat(
            PlanFiles.of(List.of(TABLE + "/data/a.parquet", TABLE + "/metadata/stray.parquet"))
                .prefixes(TABLE, METADATA, 4))
        .isEmpty();
    List<String> outside = new ArrayList<>();
    for (int i = 0; i < 5; i += 1) {
      outside.add("s3://other-bucket/imported/" + i + "/x.parquet");
    }
    assertThat(PlanFiles.of(outside).prefixes(TABLE, METADATA, 4)).isEmpty();
    assertThat(PlanFiles.of(outside).prefixes(TABLE, METADATA, 5)).hasSize(5);
  }

  /** Locations of data files in {@code partitions} two-level partition directories of the table. */
  private static List<String> plan(SplittableRandom random, int files, int partitions) {
    List<String> locations = new ArrayList<>();
    for (int i = 0; i < files; i += 1) {
      int partition = random.nextInt(partitions);
      locations.add(
          TABLE
              + "/data/region=r"
              + (partition % 7)
              + "/day="
              + partition
              + "/"
              + Long.toHexString(random.nextLong())
              + (random.nextInt(10) == 0 ? "-é" : "")
              + ".parquet");
    }
    if (random.nextInt(4) == 0) {
      locations.add(locations.get(0));
    }
    return locations;
  }
}
