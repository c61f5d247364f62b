package dev.cairn.api.archives;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

import dev.cairn.storage.archive.ArchiveFormat;
import dev.cairn.storage.archive.ArchiveWriter;

/**
 * An export written as a response body: straight into it for a format that writes streams, else into a
 * file under the spool folder first (a zip's directory comes after every entry) and then sent with its
 * length. Either way the response's stream is left open: the container ends a response that succeeded,
 * and one whose export failed must not look ended, so that its client sees it cut.
 */
final class ArchiveDownload {

    /** Writes an archive to the writer it is given: the export, from its snapshot. */
    @FunctionalInterface
    interface Export {
        void to(ArchiveWriter writer) throws IOException;
    }

    private ArchiveDownload() {}

    /** Writes {@code export} to {@code body}; {@code length} hears the body's length when it is known first. */
    static void write(ArchiveFormat format, Export export, OutputStream body, Path spool, LongConsumer length)
            throws IOException {
        if (format.writesStreams()) {
            streamed(format, export, body);
        } else {
            spooled(format, export, body, spool, length);
        }
    }

    static void streamed(ArchiveFormat format, Export export, OutputStream body) throws IOException {
        try (ArchiveWriter writer = format.writer(new KeptOpen(body))) {
            export.to(writer);
        }
    }

    static void spooled(ArchiveFormat format, Export export, OutputStream body, Path spool, LongConsumer length)
            throws IOException {
        Files.createDirectories(spool);
        // a folder of its own: a writer makes its file (and scratch beside it) and never writes over one
        Path folder = Files.createTempDirectory(spool, "export-");
        Path file = folder.resolve("archive" + format.extension());
        try {
            try (ArchiveWriter writer = format.writer(file)) {
                export.to(writer);
            }
            length.accept(Files.size(file));
            Files.copy(file, body);
            body.flush();
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(folder);
        }
    }

    /** The response's stream as a writer sees it: closing it only flushes. */
    private static final class KeptOpen extends FilterOutputStream {
        KeptOpen(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
