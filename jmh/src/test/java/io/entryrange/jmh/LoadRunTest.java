package io.entryrange.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load run's unmeasured server warmup drives each strategy before the first round, the
 * strategies take turns in reverse order every other round, and its plan cells are in the last
 * rounds only.
 */
class LoadRunTest {
  @Test
  void warmsUpEachServerOnceBeforeTheMeasuredRounds(@TempDir Path warehouse) {
    List<String> progress = new ArrayList<>();
    LoadRun.Bounds bounds =
        new LoadRun.Bounds(Duration.ofMillis(300), Duration.ofMillis(50), Duration.ofMillis(200), 500, List.of(4));
    List<LoadResult> results =
        new LoadRun(warehouse, 1_000, Layout.LARGE_MANIFESTS, bounds, progress::add)
            .run(List.of(Strategy.RANGE, Strategy.REFERENCE), 2, 1);

    assertThat(progress.subList(0, 2))
        .containsExactly("load range tasks: warmed up for PT0.3S", "load reference tasks: warmed up for PT0.3S");
    assertThat(progress.stream().filter(line -> line.contains("warmed up"))).hasSize(2);
    assertThat(results).hasSize(2 * 2 + 2).allMatch(result -> result.errors() == 0);
    assertThat(results.stream().filter(result -> LoadResult.PLAN.equals(result.endpoint())))
        .extracting(LoadResult::round)
        .containsExactly(1, 1);
    assertThat(progress)
        .filteredOn(line -> line.contains(" tasks clients="))
        .extracting(line -> line.replaceAll("load ([a-z-]+) tasks clients=4 round ([0-9]).*", "$2 $1"))
        .containsExactly("0 range", "0 reference", "1 reference", "1 range");
  }
}
