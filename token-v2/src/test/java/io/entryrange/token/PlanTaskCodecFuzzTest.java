package io.entryrange.token;

import static io.entryrange.token.PlanTaskFixtures.b64;
import static io.entryrange.token.PlanTaskFixtures.encode;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

/**
 * Mutates valid plan tasks at random. Whatever comes out, {@code decode} must not throw, and
 * anything it accepts must survive another encode and decode unchanged: otherwise a value the
 * server accepted could not be handed out again.
 */
class PlanTaskCodecFuzzTest {

  private static final int ROUNDS = 5_000;
  private static final String BASE64_ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  private static final String NOISE = "+/= \n\t.!";
  private static final String JSON_TOKENS = "{}[]\":,.-+eE0123456789 tfnul\\x";

  private final PlanTaskCodec codec = new PlanTaskCodec();
  private final List<String> valid =
      List.of(
          codec.encode(PlanTaskFixtures.rangeTask(3)),
          codec.encode(PlanTaskFixtures.offsetTask()),
          codec.encode(
              new OffsetPlanTask(TableIdentifier.of("t"), 0, 1, PlanTaskFixtures.minimalScan(1))));

  @Test
  void mutatedBase64NeverThrowsAndIsStable() {
    Random random = new Random(20260728L);
    int accepted = fuzz(random, planTask -> mutate(random, planTask, BASE64_ALPHABET + NOISE));

    // flipping characters of the outer layer mostly breaks the JSON, but not always
    assertThat(accepted).isPositive();
  }

  @Test
  void mutatedJsonNeverThrowsAndIsStable() {
    Random random = new Random(42L);
    int accepted =
        fuzz(
            random,
            planTask ->
                b64(
                    mutate(random, PlanTaskFixtures.json(planTask), JSON_TOKENS)
                        .getBytes(StandardCharsets.UTF_8)));

    assertThat(accepted).isPositive();
  }

  /** Returns how many mutants decoded, after checking each against the contract. */
  private int fuzz(Random random, UnaryOperator<String> mutation) {
    int accepted = 0;
    for (int round = 0; round < ROUNDS; round += 1) {
      String mutant = mutation.apply(valid.get(random.nextInt(valid.size())));

      Optional<PlanTask> decoded = codec.decode(mutant);

      if (decoded.isPresent()) {
        accepted += 1;
        String reissued = encode(codec, decoded.get());
        assertThat(codec.decode(reissued)).as("re-decoded %s", mutant).contains(decoded.get());
      }
    }
    System.out.printf("fuzz: %d of %d mutants decoded%n", accepted, ROUNDS);
    return accepted;
  }

  /** One to three random flips, insertions or deletions drawn from {@code alphabet}. */
  private static String mutate(Random random, String text, String alphabet) {
    StringBuilder mutant = new StringBuilder(text);
    int edits = 1 + random.nextInt(3);
    for (int edit = 0; edit < edits; edit += 1) {
      int at = random.nextInt(mutant.length() + 1);
      char ch = alphabet.charAt(random.nextInt(alphabet.length()));
      switch (random.nextInt(3)) {
        case 0 -> mutant.insert(at, ch);
        case 1 -> {
          if (at < mutant.length()) {
            mutant.setCharAt(at, ch);
          }
        }
        default -> {
          if (at < mutant.length()) {
            mutant.deleteCharAt(at);
          }
        }
      }
    }
    return mutant.toString();
  }
}
