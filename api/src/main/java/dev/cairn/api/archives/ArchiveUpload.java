package dev.cairn.api.archives;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;

import dev.cairn.storage.archive.ArchiveFormat;
import dev.cairn.storage.archive.ArchiveReader;
import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * An uploaded archive opened for reading: its format told by its first bytes, read as it arrives when
 * the format allows, else spooled to a file first (a zip is read from its end). Closing it deletes the
 * spooled file.
 */
final class ArchiveUpload implements AutoCloseable {

    private final ArchiveFormat format;
    private final ArchiveReader reader;
    private final Path spooled;

    private ArchiveUpload(ArchiveFormat format, ArchiveReader reader, Path spooled) {
        this.format = format;
        this.reader = reader;
        this.spooled = spooled;
    }

    /**
     * Opens {@code body} and reads the archive's header; {@code spool} is the folder a format that cannot
     * read a stream is copied into (archives are large: on the disk of the data directory, not /tmp).
     */
    public static ArchiveUpload open(InputStream body, Path spool) throws IOException {
        BufferedInputStream in = new BufferedInputStream(body, 1 << 16);
        in.mark(ArchiveFormat.SIGNATURE_BYTES);
        byte[] start = in.readNBytes(ArchiveFormat.SIGNATURE_BYTES);
        in.reset();
        ArchiveFormat format = ArchiveFormat.detect(start).orElseThrow(() -> unknown(start));
        return format.readsStreams() ? new ArchiveUpload(format, format.open(in), null) : spooled(format, in, spool);
    }

    /** Copies the upload into a file under {@code spool} and opens that: for a format read from files only. */
    static ArchiveUpload spooled(ArchiveFormat format, InputStream in, Path spool) throws IOException {
        Files.createDirectories(spool);
        Path file = Files.createTempFile(spool, "upload-", format.extension());
        try {
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return new ArchiveUpload(format, format.open(file), file);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    private static InvalidArchiveException unknown(byte[] start) {
        if (start.length == 0) {
            return new InvalidArchiveException(
                    "the body is empty: send the archive file as the body (Content-Type: application/octet-stream)");
        }
        return new InvalidArchiveException("the body is not an archive of a format this server reads ("
                + ArchiveFormat.keys() + "): it begins with the bytes "
                + HexFormat.ofDelimiter(" ").formatHex(start));
    }

    /**
     * Reads what is left of a refused upload, so that the client, still sending, hears why it was refused
     * rather than a connection closed under it (the container swallows only a little of an unread body).
     */
    static void drain(InputStream body) {
        try {
            body.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            // the client went away: there is no one left to answer
        }
    }

    public ArchiveFormat format() {
        return format;
    }

    public ArchiveReader reader() {
        return reader;
    }

    @Override
    public void close() throws IOException {
        try {
            reader.close();
        } finally {
            if (spooled != null) {
                Files.deleteIfExists(spooled);
            }
        }
    }
}
