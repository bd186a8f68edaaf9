package io.entryrange.planner.batch;

import java.util.List;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * One plan task to hand out, as the forms it may take, preferred first: the codec encodes the
 * first form that fits its size bound. A one-batch part of a fan-out span prefers its batch of
 * ranges and falls back to the span itself, which names the same entries in a few numbers (64
 * long manifest paths may not fit), so a span that could be planned can always be redeemed.
 *
 * @param forms equivalent pieces of work, never empty
 */
public record Handout(List<PlannedWork> forms) {

  public Handout {
    Preconditions.checkArgument(forms != null && !forms.isEmpty(), "Invalid handout: %s", forms);
    forms = List.copyOf(forms);
  }

  public static Handout of(PlannedWork... forms) {
    return new Handout(List.of(forms));
  }
}
