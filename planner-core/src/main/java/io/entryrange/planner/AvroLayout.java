package io.entryrange.planner;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * What trimming a slice needs from a manifest's Avro header, parsed once per manifest: Avro's own
 * parsed header and the codec's name, a skipper compiled from the writer's entry schema, and the header
 * rewritten with the codec set to {@code null}, for handing over blocks that are already inflated.
 *
 * <p>Why cached beside the block index: in a profile of full scans over HTTP, parsing a
 * manifest header's schema cost more than decoding the 100 entries of a slice, so it is done once
 * per manifest per node, not once per redemption.
 */
record AvroLayout(
    DataFileStream.Header header, String codec, EntrySkipper skipper, byte[] plainHeader) {
  /**
   * Parses {@code header} (magic, metadata, sync marker), or returns null for a codec this Avro
   * cannot inflate, whose slices then go to Iceberg's reader untrimmed and fail there as they
   * would in {@code planFiles()}.
   */
  static AvroLayout parse(byte[] header) throws IOException {
    try (DataFileStream<Object> stream =
        new DataFileStream<>(new ByteArrayInputStream(header), new GenericDatumReader<>())) {
      String codec = stream.getMetaString(DataFileConstants.CODEC);
      return new AvroLayout(
          stream.getHeader(),
          codec == null ? DataFileConstants.NULL_CODEC : codec,
          EntrySkipper.of(stream.getSchema()),
          withPlainCodec(stream, header));
    } catch (AvroRuntimeException e) {
      return null;
    }
  }

  private static byte[] withPlainCodec(DataFileStream<Object> stream, byte[] header)
      throws IOException {
    List<String> keys = stream.getMetaKeys();
    ByteArrayOutputStream out = new ByteArrayOutputStream(header.length);
    out.write(DataFileConstants.MAGIC);
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    encoder.writeMapStart();
    encoder.setItemCount(keys.size());
    for (String key : keys) {
      encoder.startItem();
      encoder.writeString(key);
      encoder.writeBytes(
          DataFileConstants.CODEC.equals(key)
              ? DataFileConstants.NULL_CODEC.getBytes(StandardCharsets.UTF_8)
              : stream.getMeta(key));
    }
    encoder.writeMapEnd();
    encoder.flush();
    out.write(header, header.length - DataFileConstants.SYNC_SIZE, DataFileConstants.SYNC_SIZE);
    return out.toByteArray();
  }

  /** The file's sync marker, which ends the header and every block. */
  boolean isSync(byte[] bytes, int offset) {
    int sync = plainHeader.length - DataFileConstants.SYNC_SIZE;
    return Arrays.equals(
        bytes, offset, offset + DataFileConstants.SYNC_SIZE,
        plainHeader, sync, plainHeader.length);
  }

  /** Heap held, as cache weigher counts it: the rewritten header and a parsed schema. */
  int weight() {
    return 5 * plainHeader.length;
  }
}
