package dev.cairn.storage.archive;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.objects.ObjectKey;

/**
 * Writes Cairn's archive format ({@code docs/archive-format.md}) to a file or a stream. A file is
 * written under a {@code .partial} name and renamed by {@link #finish}, so an export that fails leaves
 * nothing that looks like an archive; a stream that ends early lacks its trailer, which readers refuse.
 */
public final class CairnArchiveWriter implements ArchiveWriter {

    private final DataOutputStream out;
    private final Path target;
    private final Path partial;
    private ArchiveHeader header;
    private int nextPart;
    private PartOutput current;
    private long objects;
    private final Map<ArchivePart, Long> written = new EnumMap<>(ArchivePart.class);
    private final Map<String, Object> sums = new LinkedHashMap<>();
    private boolean finished;

    private CairnArchiveWriter(OutputStream out, Path target, Path partial) {
        this.out = new DataOutputStream(new BufferedOutputStream(out, 1 << 16));
        this.target = target;
        this.partial = partial;
    }

    /** Writes {@code file}, which appears only when the archive is complete. */
    public static CairnArchiveWriter toFile(Path file) throws IOException {
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        return new CairnArchiveWriter(Files.newOutputStream(partial), file, partial);
    }

    /** Writes to {@code out} (an HTTP response), which {@link #close} closes. */
    public static CairnArchiveWriter toStream(OutputStream out) {
        return new CairnArchiveWriter(out, null, null);
    }

    @Override
    public void begin(ArchiveHeader header) throws IOException {
        if (this.header != null) {
            throw new IllegalStateException("the archive was begun already");
        }
        this.header = header;
        Frames.writeStart(out);
        byte[] json = HeaderJson.write(header);
        Frames.write(out, Frames.HEADER, json, json.length, json.length);
    }

    @Override
    public OutputStream rows(ArchivePart part) throws IOException {
        if (part == ArchivePart.OBJECTS) {
            throw new IllegalArgumentException("objects are written with object(), not as rows");
        }
        startPart(part);
        PartOutput rows = current;
        return new FilterOutputStream(rows) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                rows.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                if (current == rows) {
                    endPart(rows.lines());
                }
            }
        };
    }

    @Override
    public void object(ObjectKey key, long size, InputStream content) throws IOException {
        if (current == null || current.part() != ArchivePart.OBJECTS) {
            startPart(ArchivePart.OBJECTS);
        }
        current.write(key.digest());
        byte[] length = new byte[Long.BYTES];
        for (int i = 0; i < Long.BYTES; i++) {
            length[i] = (byte) (size >>> (56 - 8 * i));
        }
        current.write(length);
        long copied = content.transferTo(current);
        if (copied != size) {
            throw new IOException("object " + key + " has " + copied + " bytes, not the " + size + " announced");
        }
        objects++;
    }

    @Override
    public void finish() throws IOException {
        if (current == null || current.part() != ArchivePart.OBJECTS) {
            startPart(ArchivePart.OBJECTS);
        }
        endPart(objects);
        for (ArchivePart p : ArchivePart.values()) {
            if (written.get(p) != header.count(p)) {
                throw new IOException("the archive's header announced " + header.count(p) + " " + p.key() + " but "
                        + written.get(p) + " were written");
            }
        }
        Map<String, Object> trailer = new LinkedHashMap<>();
        trailer.put("counts", HeaderJson.counts(written));
        trailer.put("sha256", sums);
        writeJsonFrame(out, Frames.TRAILER, trailer);
        out.flush();
        if (target != null) {
            out.close();
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        finished = true;
    }

    @Override
    public void close() throws IOException {
        try {
            out.close();
        } finally {
            if (!finished && partial != null) {
                Files.deleteIfExists(partial);
            }
        }
    }

    /** Starts {@code part}, first writing as empty every part before it that was skipped. */
    private void startPart(ArchivePart part) throws IOException {
        if (header == null) {
            throw new IllegalStateException("begin() the archive first");
        }
        if (part.ordinal() < nextPart) {
            throw new IllegalStateException("the " + part.key() + " part comes before parts already written");
        }
        if (current != null) {
            endPart(current.part() == ArchivePart.OBJECTS ? objects : current.lines());
        }
        while (nextPart < part.ordinal()) {
            ArchivePart skipped = ArchivePart.values()[nextPart];
            writeJsonFrame(out, Frames.PART, Map.of("part", skipped.key()));
            current = new PartOutput(out, skipped);
            endPart(0);
        }
        writeJsonFrame(out, Frames.PART, Map.of("part", part.key()));
        current = new PartOutput(out, part);
        nextPart = part.ordinal() + 1;
    }

    private void endPart(long count) throws IOException {
        sums.put(current.part().key(), current.end(count));
        written.put(current.part(), count);
        current = null;
    }

    static void writeJsonFrame(DataOutputStream out, int type, Map<String, Object> json) throws IOException {
        byte[] payload = JsonCodec.write(json).getBytes(StandardCharsets.UTF_8);
        Frames.write(out, type, payload, payload.length, payload.length);
    }
}
