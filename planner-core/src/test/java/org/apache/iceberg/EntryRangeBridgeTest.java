package org.apache.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The bridge's self-checks pass on the running Iceberg (each supported release runs this class),
 * and a failed one says which release and what to do.
 */
class EntryRangeBridgeTest {

  @Test
  void selfChecksPassOnThisRelease() {
    assertThatCode(EntryRangeBridge::checkIcebergRelease).doesNotThrowAnyException();
  }

  @Test
  void positionSlotReadsBackThroughPos() {
    assertThatCode(() -> EntryRangeBridge.checkPositionSlot(EntryRangeBridge.FILE_ORDINAL_SLOT))
        .doesNotThrowAnyException();
  }

  @Test
  void aSlotThatIsNotPosFailsLoudly() {
    // slot 20 is content_size_in_bytes, a long as well: written silently, never seen by pos()
    assertThatThrownBy(() -> EntryRangeBridge.checkPositionSlot(20))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("BaseFile slot 20 is not pos()");
    // slot 3 is the spec id, an int: the write itself fails
    assertThatThrownBy(() -> EntryRangeBridge.checkPositionSlot(3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("BaseFile slot 3 is not pos()");
  }

  @Test
  void anUnsupportedReleaseIsNamedWithTheSupportedOnes() {
    IllegalStateException failed =
        EntryRangeBridge.unsupportedRelease(
            "1.13.0", new IllegalStateException("BaseFile slot 21 is not pos()"));
    assertThat(failed)
        .hasMessage(
            "Iceberg 1.13.0 is not supported by the entry-range planner (built for Iceberg 1.11.0"
                + " to 1.12.0): BaseFile slot 21 is not pos()")
        .hasCauseInstanceOf(IllegalStateException.class);
  }
}
