package io.entryrange.planner.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.iceberg.io.InputFile;

/**
 * Avro files read by Avro's own generic reader, the view independent of the planner's that slice
 * tests compare manifests and slices with.
 */
public final class AvroFiles {
  private AvroFiles() {}

  /** A stream over {@code file}'s records, which the caller closes. */
  public static DataFileStream<GenericRecord> stream(InputFile file) throws IOException {
    return new DataFileStream<>(file.newStream(), new GenericDatumReader<>());
  }

  /** Every record of {@code file}, in order. */
  public static List<GenericRecord> records(InputFile file) throws IOException {
    List<GenericRecord> records = new ArrayList<>();
    try (DataFileStream<GenericRecord> all = stream(file)) {
      all.forEach(records::add);
    }
    return records;
  }
}
