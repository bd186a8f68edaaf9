package org.apache.iceberg;

import org.apache.iceberg.avro.Avro;
import org.apache.iceberg.avro.InternalReader;
import org.apache.iceberg.avro.InternalWriter;

/**
 * Registers Avro in Iceberg's {@code InternalData} registry the way Iceberg itself does, as any
 * other library on a catalog's class path could after the planner started: for tests of what
 * redemption does when its held-reader hook is no longer the registered function.
 */
public final class AvroRegistration {
  private AvroRegistration() {}

  public static void registerAsIcebergDoes() {
    InternalData.register(
        FileFormat.AVRO,
        outputFile -> Avro.write(outputFile).createWriterFunc(InternalWriter::create),
        inputFile -> Avro.read(inputFile).createResolvingReader(InternalReader::create));
  }
}
