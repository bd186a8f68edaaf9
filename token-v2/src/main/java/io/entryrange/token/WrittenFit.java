package io.entryrange.token;

import com.fasterxml.jackson.core.JsonGenerator;
import io.entryrange.planner.batch.Handout;
import io.entryrange.planner.ResponseFit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.util.JsonUtil;

/**
 * A {@link ResponseFit} that decides by writing the response, as compact JSON, into a buffer that
 * stops at the response target, and keeps the last response it found fitting with its JSON, so
 * the reply sent is the one measured ({@link ScanReply}).
 *
 * <p>Why write rather than estimate: the target is a promise about the bytes a gateway sees, and
 * only writing them with Iceberg's own parsers knows them exactly; stopping at the target keeps a
 * response that does not fit from being written whole. Writing stops, as the endpoint's does,
 * when the request's thread is interrupted (a request past its timeout). One per request: not
 * thread-safe.
 *
 * @param <R> the response type
 */
final class WrittenFit<R> implements ResponseFit {
  /** Bytes of a task's JSON without column stats, a little above the usual. */
  private static final long TASK_BYTES = 384;

  /** The most a buffer starts with, whatever the target; beyond it, it grows as written. */
  private static final long MAX_START_BYTES = 16 << 20;

  private final long targetBytes;
  private final Function<List<Handout>, Optional<List<String>>> encoder;
  private final BiFunction<List<FileScanTask>, List<String>, R> builder;
  private final ResponseWriter<R> writer;
  private List<FileScanTask> keptTasks;
  private List<Handout> keptHandouts;
  private List<String> keptPlanTasks;
  private R keptResponse;
  private byte[] keptJson;

  /**
   * @param encoder the handouts as plan task strings, empty when the codec cannot carry one: such
   *     a response counts as fitting here and is refused or answered inline by the caller
   * @param builder the response holding the tasks and plan tasks
   * @param writer how Iceberg writes that response
   */
  WrittenFit(
      long targetBytes,
      Function<List<Handout>, Optional<List<String>>> encoder,
      BiFunction<List<FileScanTask>, List<String>, R> builder,
      ResponseWriter<R> writer) {
    this.targetBytes = targetBytes;
    this.encoder = encoder;
    this.builder = builder;
    this.writer = writer;
  }

  @Override
  public boolean fits(List<FileScanTask> tasks, List<Handout> handouts) {
    Optional<List<String>> planTasks = encoder.apply(handouts);
    if (planTasks.isEmpty()) {
      return true;
    }
    R response = builder.apply(tasks, planTasks.get());
    Optional<byte[]> json = written(response, tasks.size(), planTasks.get());
    if (json.isPresent()) {
      keptTasks = tasks;
      keptHandouts = handouts;
      keptPlanTasks = planTasks.get();
      keptResponse = response;
      keptJson = json.get();
    }
    return json.isPresent();
  }

  /**
   * The handouts as plan task strings: the ones this fit encoded for the response it last found
   * fitting when these are the same handouts, else encoded now; empty when the codec cannot carry
   * one. Why: the response is measured with its plan tasks in it, so by the time the caller sends
   * it they were encoded once already; encoding them again doubled a fan-out plan call's work on
   * its 64 plan tasks.
   */
  Optional<List<String>> encoded(List<Handout> handouts) {
    if (keptResponse != null && (handouts == keptHandouts || handouts.equals(keptHandouts))) {
      return Optional.of(keptPlanTasks);
    }
    return encoder.apply(handouts);
  }

  /**
   * The reply holding these tasks and plan tasks: the response this fit last found fitting, with
   * its JSON, when it holds the same tasks (the same objects) and plan tasks; else built anew, with
   * its JSON when it is within the target (a batch of one entry, which is never cut, so never
   * measured), else without (a plan answered inline past the target, which the host writes within
   * its own limit).
   */
  ScanReply<R> reply(List<FileScanTask> tasks, List<String> planTasks) {
    if (keptResponse != null
        && sameTasks(tasks, keptTasks)
        && planTasks.equals(keptPlanTasks)) {
      return new ScanReply<>(keptResponse, keptJson);
    }
    R response = builder.apply(tasks, planTasks);
    return new ScanReply<>(response, written(response, tasks.size(), planTasks).orElse(null));
  }

  private static boolean sameTasks(List<FileScanTask> tasks, List<FileScanTask> kept) {
    if (tasks == kept) {
      return true;
    }
    if (tasks.size() != kept.size()) {
      return false;
    }
    for (int i = 0; i < tasks.size(); i++) {
      if (tasks.get(i) != kept.get(i)) {
        return false;
      }
    }
    return true;
  }

  /** The response's JSON, or empty once it passes the target. */
  private Optional<byte[]> written(R response, int tasks, List<String> planTasks) {
    BoundedBuffer buffer =
        new BoundedBuffer(startBytes(targetBytes, tasks, planTasks), targetBytes, Overflow::new);
    try (JsonGenerator gen = JsonUtil.factory().createGenerator(buffer)) {
      writer.write(response, gen);
    } catch (Overflow e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Optional.of(buffer.toByteArray());
  }

  /**
   * What a buffer for a response of {@code tasks} tasks starts with: what that many tasks without
   * stats usually take (a few hundred bytes each) and its plan tasks, since a buffer doubling from
   * a small start copied about as many bytes as a response holds, a third of a full scan's
   * allocation on the server, and the 64 plan tasks of a fan-out plan response (about 22 KB) made
   * it grow once more.
   */
  static int startBytes(long targetBytes, int tasks) {
    return startBytes(targetBytes, tasks, List.of());
  }

  /** The same for a response that also holds {@code planTasks}. */
  private static int startBytes(long targetBytes, int tasks, List<String> planTasks) {
    long planTaskBytes = 0;
    for (String planTask : planTasks) {
      planTaskBytes += planTask.length() + 3;
    }
    return (int)
        Math.min(
            Math.min(targetBytes, 8192 + TASK_BYTES * tasks + planTaskBytes),
            MAX_START_BYTES);
  }

  /** Thrown through the generator to stop writing past the target; no stack trace: control flow. */
  private static final class Overflow extends RuntimeException {
    Overflow() {
      super(null, null, false, false);
    }
  }
}
