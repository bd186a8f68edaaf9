package io.entryrange.token;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** {@link ScanPlanningService#close} closes what the service created and nothing it was given. */
class ScanPlanningServiceCloseTest {

  @Test
  void closeLeavesAGivenPoolRunning() {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      ScanPlanningService service = ScanPlanningService.builder().planningPool(pool).build();
      service.close();
      assertThat(pool.isShutdown()).isFalse();
      assertThat(service.planningPoolShutDown()).isFalse();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void closeShutsDownThePoolTheServiceCreated() {
    ScanPlanningService service = ScanPlanningService.builder().build();
    assertThat(service.planningPoolShutDown()).isFalse();
    service.close();
    assertThat(service.planningPoolShutDown()).isTrue();
  }
}
