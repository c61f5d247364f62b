package dev.cairn.storage.archive;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Map;

import dev.cairn.storage.objects.ObjectKey;

/**
 * Reads Cairn's archive format ({@code docs/archive-format.md}) from a file or a stream, once, checking
 * as it goes: the magic and version, every frame's bounds, every part's length, checksum and count
 * against the header, every object's key against its bytes, and the trailer at the end.
 */
public final class CairnArchiveReader implements ArchiveReader {

    private final DataInputStream in;
    private final ArchiveHeader header;
    private final PartInput.Expansion expansion;
    private boolean read;

    private CairnArchiveReader(InputStream in, ExpansionLimit limit) throws IOException {
        this.expansion = new PartInput.Expansion(limit);
        this.in = new DataInputStream(new BufferedInputStream(in, 1 << 16));
        Frames.readStart(this.in);
        Frames.Frame first = Frames.read(this.in, "the header");
        if (first.type() != Frames.HEADER) {
            throw new InvalidArchiveException(
                    "corrupt archive: it starts with a " + Frames.name(first.type()) + " frame, not the header");
        }
        this.header = HeaderJson.read(first.payload());
    }

    /** Opens {@code file} and reads its header. */
    public static CairnArchiveReader open(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        try {
            return new CairnArchiveReader(in, ExpansionLimit.DEFAULT);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** Reads from {@code in} (an upload), which {@link #close} closes; reads the header now. */
    public static CairnArchiveReader open(InputStream in) throws IOException {
        return new CairnArchiveReader(in, ExpansionLimit.DEFAULT);
    }

    /** For tests of the limit: {@link #open(InputStream)} with another one. */
    static CairnArchiveReader open(InputStream in, ExpansionLimit limit) throws IOException {
        return new CairnArchiveReader(in, limit);
    }

    /** True when {@code start} (a file's first bytes) is Cairn's magic. */
    public static boolean isCairnArchive(byte[] start) {
        if (start.length < Frames.MAGIC.length) {
            return false;
        }
        for (int i = 0; i < Frames.MAGIC.length; i++) {
            if (start[i] != Frames.MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public ArchiveHeader header() {
        return header;
    }

    @Override
    public void read(Visitor visitor) throws IOException {
        if (read) {
            throw new IllegalStateException("an archive stream is read once");
        }
        read = true;
        for (ArchivePart part : ArchivePart.ROWS) {
            PartInput rows = startPart(part);
            visitor.rows(part, unclosable(rows));
            rows.drain();
            checkCount(part, rows.lines(), rows.endCount());
        }
        PartInput objects = startPart(ArchivePart.OBJECTS);
        long count = 0;
        byte[] recordHead = new byte[32 + Long.BYTES];
        while (!objects.atEnd()) {
            readRecordHead(objects, recordHead, count);
            ObjectKey key = ObjectKey.ofDigest(Arrays.copyOf(recordHead, 32));
            long size = 0;
            for (int i = 32; i < recordHead.length; i++) {
                size = (size << 8) | (recordHead[i] & 0xff);
            }
            if (size < 0) {
                throw new InvalidArchiveException("corrupt archive: object " + key + " claims a negative size");
            }
            CheckedObject content = new CheckedObject(objects, key, size);
            visitor.object(key, size, content);
            content.drain();
            count++;
        }
        checkCount(ArchivePart.OBJECTS, count, objects.endCount());
        readTrailer();
    }

    private void readRecordHead(PartInput objects, byte[] head, long index) throws IOException {
        int got = objects.readNBytes(head, 0, head.length);
        if (got != head.length) {
            throw new InvalidArchiveException(
                    "corrupt archive: the objects part ends inside the header of object #" + (index + 1));
        }
    }

    private PartInput startPart(ArchivePart part) throws IOException {
        Frames.Frame f = Frames.read(in, "the start of the " + part.key() + " part");
        if (f.type() != Frames.PART) {
            throw new InvalidArchiveException("corrupt archive: a " + Frames.name(f.type()) + " frame where the "
                    + part.key() + " part should start");
        }
        Map<String, Object> json = HeaderJson.object(f.payload(), "the start of the " + part.key() + " part");
        if (!part.key().equals(json.get("part"))) {
            throw new InvalidArchiveException(
                    "corrupt archive: part '" + json.get("part") + "' where the " + part.key() + " part should start");
        }
        return new PartInput(in, part, expansion);
    }

    private void checkCount(ArchivePart part, long read, long ended) {
        if (read != ended || read != header.count(part)) {
            throw new InvalidArchiveException("corrupt archive: the " + part.key() + " part holds " + read
                    + (part == ArchivePart.OBJECTS ? " objects" : " rows") + ", its end says " + ended
                    + " and the header " + header.count(part));
        }
    }

    private void readTrailer() throws IOException {
        Frames.Frame f = Frames.read(in, "the trailer");
        if (f.type() != Frames.TRAILER) {
            throw new InvalidArchiveException(
                    "corrupt archive: a " + Frames.name(f.type()) + " frame where the trailer should be");
        }
        Map<String, Object> trailer = HeaderJson.object(f.payload(), "the trailer");
        if (!HeaderJson.readCounts(trailer.get("counts"), "trailer").equals(header.counts())) {
            throw new InvalidArchiveException(
                    "corrupt archive: the trailer's counts " + trailer.get("counts") + " differ from the header's");
        }
        if (in.read() >= 0) {
            throw new InvalidArchiveException("corrupt archive: there are bytes after the trailer");
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** A visitor's stream: closing it must not end the archive's. */
    private static InputStream unclosable(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public void close() {}
        };
    }

    /** One object's bytes, whose SHA-256 is checked against its key when the last byte is read. */
    private static final class CheckedObject extends InputStream {
        private final PartInput part;
        private final ObjectKey key;
        private final MessageDigest digest = Digests.sha256();
        private long remaining;

        CheckedObject(PartInput part, ObjectKey key, long size) {
            this.part = part;
            this.key = key;
            this.remaining = size;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (remaining == 0) {
                return -1;
            }
            int n = part.read(b, off, (int) Math.min(len, remaining));
            if (n < 0) {
                throw new InvalidArchiveException("corrupt archive: the objects part ends inside object " + key);
            }
            digest.update(b, off, n);
            remaining -= n;
            if (remaining == 0) {
                ObjectKey actual = ObjectKey.ofDigest(digest.digest());
                if (!actual.equals(key)) {
                    throw new InvalidArchiveException(
                            "object " + key + " in the archive has bytes whose SHA-256 is " + actual);
                }
            }
            return n;
        }

        void drain() throws IOException {
            byte[] skip = new byte[8192];
            while (read(skip, 0, skip.length) >= 0) {
                // reading checks the key
            }
        }

        @Override
        public void close() {}
    }
}
