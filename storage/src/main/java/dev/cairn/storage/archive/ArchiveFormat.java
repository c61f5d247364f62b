package dev.cairn.storage.archive;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import dev.cairn.storage.archive.aiida.AiidaArchiveReader;
import dev.cairn.storage.archive.aiida.AiidaArchiveWriter;

/**
 * The archive formats Cairn reads and writes, and the one place where a format is chosen: by name (an
 * option, {@code format=cairn}) or by a file's first bytes (an upload, a file given to import). Each
 * format opens its own reader and writer; the rest of Cairn sees only {@link ArchiveReader} and
 * {@link ArchiveWriter}.
 */
public enum ArchiveFormat {

    /** Cairn's own ({@code docs/archive-format.md}): read and written as a stream, never seeked. */
    CAIRN("cairn", ".cairn") {
        @Override
        public boolean readsStreams() {
            return true;
        }

        @Override
        public ArchiveReader open(Path file) throws IOException {
            return CairnArchiveReader.open(file);
        }

        @Override
        public ArchiveReader open(InputStream in) throws IOException {
            return CairnArchiveReader.open(in);
        }

        @Override
        public boolean writesStreams() {
            return true;
        }

        @Override
        public ArchiveWriter writer(OutputStream out) {
            return CairnArchiveWriter.toStream(out);
        }

        @Override
        public ArchiveWriter writer(Path file) throws IOException {
            return CairnArchiveWriter.toFile(file);
        }

        @Override
        boolean recognises(byte[] start) {
            return CairnArchiveReader.isCairnArchive(start);
        }
    },

    /**
     * AiiDA's {@code .aiida} ({@code main_0001}, what every aiida-core 2.x writes): a zip, whose directory
     * comes last, so it is read from and written to files only.
     */
    AIIDA("aiida", ".aiida") {
        @Override
        public boolean readsStreams() {
            return false;
        }

        @Override
        public ArchiveReader open(Path file) throws IOException {
            return AiidaArchiveReader.open(file);
        }

        @Override
        public ArchiveReader open(InputStream in) {
            throw new UnsupportedOperationException("an AiiDA archive is a zip, read from a file");
        }

        @Override
        public boolean writesStreams() {
            return false;
        }

        @Override
        public ArchiveWriter writer(OutputStream out) {
            throw new UnsupportedOperationException("an AiiDA archive is a zip, written to a file");
        }

        @Override
        public ArchiveWriter writer(Path file) {
            return new AiidaArchiveWriter(file);
        }

        @Override
        boolean recognises(byte[] start) {
            return start.length >= 4 && start[0] == 'P' && start[1] == 'K' && start[2] == 3 && start[3] == 4;
        }
    };

    /** How many of a file's first bytes {@link #detect} needs to tell the formats apart. */
    public static final int SIGNATURE_BYTES = 16;

    private final String key;
    private final String extension;

    ArchiveFormat(String key, String extension) {
        this.key = key;
        this.extension = extension;
    }

    /** The format's name in options and answers: {@code cairn}. */
    public String key() {
        return key;
    }

    /** The file name extension of the format's archives, with its dot: {@code .cairn}. */
    public String extension() {
        return extension;
    }

    /**
     * Whether {@link #open(InputStream)} reads this format as it arrives; one that needs to seek (a zip
     * reads its directory at the end first) is opened from a file only.
     */
    public abstract boolean readsStreams();

    /** Opens {@code file} and reads its header. */
    public abstract ArchiveReader open(Path file) throws IOException;

    /**
     * Reads from {@code in} (an upload), which the reader's {@code close} closes; reads the header now.
     *
     * @throws UnsupportedOperationException when the format does not {@link #readsStreams() read streams}
     */
    public abstract ArchiveReader open(InputStream in) throws IOException;

    /**
     * Whether {@link #writer(OutputStream)} writes this format as it goes; one that must seek (a zip's
     * directory comes last) is written to a file only.
     */
    public abstract boolean writesStreams();

    /**
     * Writes an archive to {@code out} (a download), which the writer's {@code close} closes.
     *
     * @throws UnsupportedOperationException when the format does not {@link #writesStreams() write streams}
     */
    public abstract ArchiveWriter writer(OutputStream out) throws IOException;

    /** Writes an archive to {@code file}, which appears only once the archive is complete. */
    public abstract ArchiveWriter writer(Path file) throws IOException;

    /** Whether {@code start}, a file's first bytes, begins an archive of this format. */
    abstract boolean recognises(byte[] start);

    /** The format named {@code key}; fails naming the formats there are. */
    public static ArchiveFormat of(String key) {
        String k = key == null ? "" : key.strip().toLowerCase(Locale.ROOT);
        for (ArchiveFormat f : values()) {
            if (f.key.equals(k)) {
                return f;
            }
        }
        throw new InvalidArchiveOptionException("unknown archive format '" + key + "'; the formats are " + keys());
    }

    /** The format whose archives begin with {@code start} (a file's first {@link #SIGNATURE_BYTES} or fewer). */
    public static Optional<ArchiveFormat> detect(byte[] start) {
        return Arrays.stream(values()).filter(f -> f.recognises(start)).findFirst();
    }

    /** The formats' names, for messages: {@code cairn, aiida}. */
    public static String keys() {
        return String.join(", ", Arrays.stream(values()).map(ArchiveFormat::key).toList());
    }
}
