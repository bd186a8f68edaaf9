package io.entryrange.planner;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.file.DataFileConstants;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.iceberg.inmemory.InMemoryInputFile;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;

/**
 * The entries of one range as a small uncompressed Avro file: the manifest's header with the codec
 * set to {@code null}, then one block holding exactly entries {@code [from, end)}.
 *
 * <p>Why: batches are cut from manifest-list counts, blind to Avro block boundaries, so a batch of
 * 100 entries usually overlaps one or two blocks of about 250. Handing whole blocks to Iceberg's
 * reader decodes every entry in them into data files (2.7 entries decoded per entry kept over a
 * full scan) and the entry window then drops most of them. Here the blocks are inflated with
 * Avro's own codec, the entries before {@code from} are stepped over by a skipper compiled from
 * the writer schema ({@link EntrySkipper}: varints and lengths, no objects), and only the range's
 * bytes reach Iceberg's reader, which decodes each kept entry once. Nothing after {@code end} is
 * parsed.
 *
 * <p>Iceberg's reader takes the header's Iceberg metadata (schema, spec, format version, content)
 * and Avro takes the codec, so the rewritten header changes nothing Iceberg derives; the
 * differential suites compare every task with {@code planFiles()}. Positions in the trimmed file
 * count from {@code from}.
 */
final class TrimmedSlice {
  private TrimmedSlice() {}

  /**
   * Trims {@code blocks}, a run of whole Avro blocks of the manifest whose first entry is {@code
   * blocksFirstEntry}, to entries {@code [from, end)}.
   *
   * @return the trimmed file, under the manifest's own location
   * @throws DamagedManifestException if the blocks end before entry {@code end} or are damaged
   */
  static InputFile of(
      String location,
      AvroLayout layout,
      byte[] blocks,
      long blocksFirstEntry,
      long from,
      long end) {
    Preconditions.checkArgument(
        from >= blocksFirstEntry && from < end, "Invalid trimmed range [%s, %s)", from, end);
    EntrySkipper skipper = layout.skipper();
    ByteArrayOutputStream kept = new ByteArrayOutputStream(blocks.length);
    BinaryDecoder decoder = null;
    long position = blocksFirstEntry;
    try (DataFileReader<Object> reader =
        DataFileReader.openReader(
            new SeekableByteArrayInput(blocks),
            new GenericDatumReader<>(),
            layout.header(),
            false)) {
      while (position < end) {
        if (!reader.hasNext()) {
          throw new DamagedManifestException(
              "Manifest has fewer entries than its block index, ended before entry "
                  + end
                  + ": "
                  + location);
        }
        long blockEnd = position + reader.getBlockCount();
        ByteBuffer block = reader.nextBlock();
        if (blockEnd > from) {
          byte[] bytes = block.array();
          int offset = block.arrayOffset() + block.position();
          int length = block.remaining();
          decoder = DecoderFactory.get().binaryDecoder(bytes, offset, length, decoder);
          for (; position < from; position += 1) {
            skipper.skip(decoder);
          }
          int start = offset + length - decoder.inputStream().available();
          int keptEnd = offset + length;
          if (end < blockEnd) {
            for (; position < end; position += 1) {
              skipper.skip(decoder);
            }
            keptEnd = offset + length - decoder.inputStream().available();
          }
          kept.write(bytes, start, keptEnd - start);
        }
        position = blockEnd;
      }
      return new InMemoryInputFile(location, file(layout.plainHeader(), end - from, kept));
    } catch (IOException | AvroRuntimeException e) {
      throw new DamagedManifestException("Invalid manifest, damaged block: " + location, e);
    }
  }

  private static byte[] file(byte[] plainHeader, long count, ByteArrayOutputStream entries)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(plainHeader.length + entries.size() + 36);
    out.write(plainHeader);
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    encoder.writeLong(count);
    encoder.writeLong(entries.size());
    encoder.flush();
    entries.writeTo(out);
    int sync = DataFileConstants.SYNC_SIZE;
    out.write(plainHeader, plainHeader.length - sync, sync);
    return out.toByteArray();
  }
}
