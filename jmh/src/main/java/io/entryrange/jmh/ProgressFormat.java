package io.entryrange.jmh;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Collection;
import java.util.Locale;
import java.util.stream.Collectors;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * Sends JMH's full output to a log file and one line per benchmark to the console. Why: JMH's own
 * console output is dozens of lines per fork, which buries progress over a hundred forks, but a
 * failing fork's stack trace must still be findable, so nothing is dropped.
 */
final class ProgressFormat implements OutputFormat {
  private final OutputFormat log;
  private final PrintStream console;
  private final int totalForks;
  private final long startNanos;
  private int started;

  /**
   * One for all of a report's JMH runs, so that forks are numbered on from run to run: a runner
   * closes its output format at the end of a run, which for JMH's text format does nothing.
   */
  ProgressFormat(OutputFormat log, PrintStream console, int totalForks, long startNanos) {
    this.log = log;
    this.console = console;
    this.totalForks = totalForks;
    this.startNanos = startNanos;
  }

  @Override
  public void startBenchmark(BenchmarkParams params) {
    started += 1;
    console.printf(
        Locale.ROOT,
        "[%3d/%d %s] %s %s%n",
        started,
        totalForks,
        ReportCli.elapsed(startNanos),
        classAndMethod(params.getBenchmark()),
        params.getParamsKeys().stream()
            .filter(key -> !key.equals("warehouse"))
            .map(key -> key + "=" + params.getParam(key))
            .collect(Collectors.joining(" ")));
    log.startBenchmark(params);
  }

  /** {@code Class.method} of a fully qualified benchmark name. */
  private static String classAndMethod(String benchmark) {
    return benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
  }

  @Override
  public void endBenchmark(BenchmarkResult result) {
    if (result != null) {
      console.printf(
          Locale.ROOT,
          "           -> %.3f %s%n",
          result.getPrimaryResult().getScore(),
          result.getPrimaryResult().getScoreUnit());
    } else {
      console.println("           -> failed, see jmh.log");
    }
    log.endBenchmark(result);
  }

  @Override
  public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
    log.iteration(benchParams, params, iteration);
  }

  @Override
  public void iterationResult(
      BenchmarkParams benchParams, IterationParams params, int iteration, IterationResult data) {
    log.iterationResult(benchParams, params, iteration, data);
  }

  @Override
  public void startRun() {
    log.startRun();
  }

  @Override
  public void endRun(Collection<RunResult> result) {
    log.endRun(result);
  }

  @Override
  public void print(String s) {
    log.print(s);
  }

  @Override
  public void println(String s) {
    log.println(s);
  }

  @Override
  public void flush() {
    log.flush();
    console.flush();
  }

  @Override
  public void close() {
    log.close();
  }

  @Override
  public void verbosePrintln(String s) {
    log.verbosePrintln(s);
  }

  @Override
  public void write(int b) {
    log.write(b);
  }

  @Override
  public void write(byte[] b) throws IOException {
    log.write(b);
  }
}
