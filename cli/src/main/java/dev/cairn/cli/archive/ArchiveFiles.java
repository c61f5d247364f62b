package dev.cairn.cli.archive;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;

/** An archive file on this host, told apart by its first bytes and read as far as its header. */
public final class ArchiveFiles {

    private static final byte[] ZIP = {'P', 'K', 3, 4};

    private ArchiveFiles() {}

    /**
     * What {@code file} says of itself, in the shape the server answers headers in: {@code format},
     * {@code version}, {@code producer}, {@code created}, {@code parameters}, {@code counts} (rows per part).
     */
    public static ObjectNode header(Path file) {
        try (InputStream raw = Files.newInputStream(file);
                DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
            in.mark(CairnFrames.MAGIC.length);
            byte[] start = in.readNBytes(CairnFrames.MAGIC.length);
            in.reset();
            if (CairnFrames.isCairn(start)) {
                return CairnFrames.readHeader(in, file.toString());
            }
            if (start.length >= ZIP.length && Arrays.equals(start, 0, ZIP.length, ZIP, 0, ZIP.length)) {
                return AiidaZip.header(file);
            }
            throw CairnFrames.invalid(
                    file + " is not an archive: neither Cairn's (.cairn) nor AiiDA's (.aiida, a zip)");
        } catch (NoSuchFileException e) {
            throw CliException.usage("no such file: " + file);
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "cannot read " + file + ": " + e.getMessage(), null, e);
        }
    }
}
