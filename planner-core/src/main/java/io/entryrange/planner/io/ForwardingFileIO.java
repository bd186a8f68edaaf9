package io.entryrange.planner.io;

import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * A {@link FileIO} that passes every call to {@link #delegate()} and hands each input file it
 * opens to {@link #wrap}, on the opening thread.
 *
 * <p>Why: production code, tests, fixtures and benchmarks watch, slow down, break or replace
 * reads; built on this class each of them writes only the input file it changes, not another copy
 * of the forwarding.
 */
public abstract class ForwardingFileIO implements FileIO {

  /** A FileIO over {@code delegate} whose input files are {@code wrap} of the delegate's. */
  public static FileIO wrapping(FileIO delegate, UnaryOperator<InputFile> wrap) {
    Preconditions.checkArgument(delegate != null, "Invalid delegate FileIO: null");
    Preconditions.checkArgument(wrap != null, "Invalid input file wrapper: null");
    return new ForwardingFileIO() {
      @Override
      protected FileIO delegate() {
        return delegate;
      }

      @Override
      protected InputFile wrap(InputFile file) {
        return wrap.apply(file);
      }
    };
  }

  /** The FileIO every call goes to. */
  protected abstract FileIO delegate();

  /** The input file handed out for the delegate's {@code file}; by default {@code file} itself. */
  protected InputFile wrap(InputFile file) {
    return file;
  }

  @Override
  public InputFile newInputFile(String path) {
    return wrap(delegate().newInputFile(path));
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return wrap(delegate().newInputFile(path, length));
  }

  @Override
  public OutputFile newOutputFile(String path) {
    return delegate().newOutputFile(path);
  }

  @Override
  public void deleteFile(String path) {
    delegate().deleteFile(path);
  }

  @Override
  public Map<String, String> properties() {
    return delegate().properties();
  }

  @Override
  public void initialize(Map<String, String> properties) {
    delegate().initialize(properties);
  }

  @Override
  public void close() {
    delegate().close();
  }
}
