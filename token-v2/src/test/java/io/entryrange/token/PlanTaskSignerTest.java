package io.entryrange.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanTaskSignerTest {
  private static final byte[] OLD = key('o');
  private static final byte[] NEW = key('n');
  private static final String PLAN_TASK =
      PlanTaskFixtures.encode(new PlanTaskCodec(), PlanTaskFixtures.offsetTask());

  private static byte[] key(char fill) {
    byte[] key = new byte[PlanTaskSigner.MIN_KEY_BYTES];
    Arrays.fill(key, (byte) fill);
    return key;
  }

  @Test
  void verifiesWhatItSignedAndGivesThePlanTaskBack() {
    PlanTaskSigner signer = PlanTaskSigner.of(List.of(NEW));
    String signed = signer.sign(PLAN_TASK);

    assertThat(signed).startsWith(PLAN_TASK + ".").matches("^[A-Za-z0-9_.-]+$");
    assertThat(signer.verify(signed, PLAN_TASK.length())).contains(PLAN_TASK);
  }

  @Test
  void refusesUnsignedTamperedAndForeignPlanTasks() {
    PlanTaskSigner signer = PlanTaskSigner.of(List.of(NEW));
    String signed = signer.sign(PLAN_TASK);
    int max = PLAN_TASK.length() + 10;

    assertThat(signer.verify(PLAN_TASK, max)).isEmpty();
    assertThat(signer.verify(null, max)).isEmpty();
    for (int i = 0; i < signed.length(); i += 7) {
      char flipped = signed.charAt(i) == 'A' ? 'B' : 'A';
      String tampered = signed.substring(0, i) + flipped + signed.substring(i + 1);
      assertThat(signer.verify(tampered, max)).as("flipped at %s", i).isEmpty();
    }
    assertThat(signer.verify(signed + "A", max)).isEmpty();
    assertThat(signer.verify(PlanTaskSigner.of(List.of(OLD)).sign(PLAN_TASK), max)).isEmpty();
    assertThat(signer.verify(signed, PLAN_TASK.length() - 1)).isEmpty();
  }

  /** Rotation: deploy (new, old) everywhere; old-signed plan tasks still verify, new ones sign. */
  @Test
  void previousKeysStillVerify() {
    String signedWithOld = PlanTaskSigner.of(List.of(OLD)).sign(PLAN_TASK);
    PlanTaskSigner rotated = PlanTaskSigner.of(List.of(NEW, OLD));

    assertThat(rotated.verify(signedWithOld, PLAN_TASK.length())).contains(PLAN_TASK);
    assertThat(rotated.sign(PLAN_TASK)).isEqualTo(PlanTaskSigner.of(List.of(NEW)).sign(PLAN_TASK));
    assertThat(PlanTaskSigner.of(List.of(NEW)).verify(signedWithOld, PLAN_TASK.length())).isEmpty();
  }

  @Test
  void keysComeFromConfigurationAndMustBeLongEnough() {
    Base64.Encoder base64 = Base64.getEncoder();
    PlanTaskSigner configured =
        PlanTaskSigner.fromConfig(
            " " + base64.encodeToString(NEW) + ",\n" + base64.encodeToString(OLD));
    assertThat(configured.sign(PLAN_TASK))
        .isEqualTo(PlanTaskSigner.of(List.of(NEW)).sign(PLAN_TASK));

    assertThatThrownBy(() -> PlanTaskSigner.fromConfig(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid plan task keys: none given");
    assertThatThrownBy(
            () ->
                PlanTaskSigner.fromConfig(
                    base64.encodeToString("secret".getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid plan task key 0: 6 bytes, at least 32 required");
    assertThatThrownBy(() -> PlanTaskSigner.fromConfig("not*base64"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid plan task key 0: not base64");
    assertThatThrownBy(() -> PlanTaskSigner.of(List.of(NEW, NEW, NEW, NEW, NEW)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("5 keys");
  }
}
