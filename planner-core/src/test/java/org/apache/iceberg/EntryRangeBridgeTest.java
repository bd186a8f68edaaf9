package org.apache.iceberg;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The position slot the bridge writes is {@code pos()} on this Iceberg, and a wrong one fails. */
class EntryRangeBridgeTest {

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
}
