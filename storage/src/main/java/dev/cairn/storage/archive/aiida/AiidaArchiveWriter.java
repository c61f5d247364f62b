package dev.cairn.storage.archive.aiida;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

import tools.jackson.databind.node.ObjectNode;

import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveWriter;
import dev.cairn.storage.archive.InvalidArchiveException;
import dev.cairn.storage.objects.ObjectKey;

/**
 * Writes an AiiDA 2.x archive ({@code .aiida}, format {@code main_0001}) from Cairn's rows and objects, one
 * that aiida-core 2.9.4 imports with {@code verdi archive import}. The layout is aiida-core's: the objects
 * first as {@code repo/<sha256>}, then {@code db.sqlite3} (deflated, with the schema aiida-core creates)
 * and {@code metadata.json} (stored), which the central directory lists first.
 *
 * <p>Rows go into the database as they arrive, their references resolved through its own indexes; the
 * objects go straight into the zip, their SHA-256 checked against their keys. Both are built in a
 * temporary folder beside the output (so the finished file is moved into place, not copied), which
 * {@link #close} removes: an archive not {@linkplain #finish finished} leaves no file behind.
 */
public final class AiidaArchiveWriter implements ArchiveWriter {

    /** The aiida-core release whose archives these match; AiiDA keeps it as information, reading none of it. */
    static final String AIIDA_VERSION = "2.9.4";

    private static final DateTimeFormatter PYTHON_ISO = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS");

    private final Path output;
    private final int compression;
    private final Path scratchParent;
    private Path scratch;
    private ArchiveDatabase database;
    private ZipWriter zip;
    private ArchiveHeader header;
    private int nextPart;
    private boolean partOpen;
    private long objects;
    private boolean failed;
    private boolean finished;

    /** Writes {@code output}, deflated at level 6 as {@code verdi archive create} does by default. */
    public AiidaArchiveWriter(Path output) {
        this(output, 6, null);
    }

    /**
     * Writes {@code output} (which must not exist), deflating at {@code compression} (0 stores); the
     * temporary folder goes under {@code scratchParent}, by default the output's own folder.
     */
    public AiidaArchiveWriter(Path output, int compression, Path scratchParent) {
        if (compression < 0 || compression > 9) {
            throw new IllegalArgumentException("compression is a level from 0 to 9, not " + compression);
        }
        this.output = output.toAbsolutePath();
        this.compression = compression;
        this.scratchParent = scratchParent != null ? scratchParent : this.output.getParent();
    }

    @Override
    public void begin(ArchiveHeader header) throws IOException {
        if (this.header != null) {
            throw new IllegalStateException("begin was called already");
        }
        if (Files.exists(output)) {
            throw new FileAlreadyExistsException(output.toString(), null, "an archive is never written over a file");
        }
        this.header = header;
        scratch = Scratch.create(scratchParent, ".cairn-aiida-write-");
        try {
            database = ArchiveDatabase.create(scratch.resolve(EntryNames.DATABASE));
            zip = new ZipWriter(scratch.resolve("archive.zip"), scratch.resolve("central"), LocalDateTime.now());
        } catch (SQLException e) {
            failed = true;
            throw new IOException("cannot create the archive's database in " + scratch + ": " + e.getMessage(), e);
        }
    }

    @Override
    public OutputStream rows(ArchivePart part) throws IOException {
        ready();
        if (partOpen || nextPart >= ArchivePart.ROWS.size() || ArchivePart.ROWS.get(nextPart) != part) {
            throw new IllegalStateException("rows of " + part + " out of order: the parts come one at a time, in the"
                    + " order " + ArchivePart.ROWS + (partOpen ? " (the previous part's stream is still open)" : ""));
        }
        partOpen = true;
        String where = "archive rows, part " + part.key();
        return new RowSink(
                where, (row, number) -> insert(part, row, where + " row " + number), rows -> endPart(part, rows));
    }

    private void insert(ArchivePart part, ObjectNode row, String where) throws IOException {
        try {
            database.insert(part, row, where);
        } catch (SQLException | RuntimeException e) {
            failed = true;
            if (e instanceof SQLException sql) {
                throw new IOException(where + ": " + sql.getMessage(), sql);
            }
            throw (RuntimeException) e;
        }
    }

    private void endPart(ArchivePart part, long rows) {
        partOpen = false;
        nextPart++;
        if (rows != header.count(part)) {
            failed = true;
            throw new InvalidArchiveException("archive rows, part " + part.key() + ": the header counts "
                    + header.count(part) + " rows, but " + rows + " were written");
        }
    }

    @Override
    public void object(ObjectKey key, long size, InputStream content) throws IOException {
        ready();
        if (partOpen || nextPart < ArchivePart.ROWS.size()) {
            throw new IllegalStateException("objects come after the rows of every part");
        }
        try {
            if (!database.objectWritten(key.hex())) {
                // one entry per content, as AiiDA writes it
                content.transferTo(OutputStream.nullOutputStream());
                return;
            }
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            zip.write(EntryNames.REPO + key.hex(), new DigestInputStream(content, sha256), size, compression, true);
            String actual = HexFormat.of().formatHex(sha256.digest());
            if (!actual.equals(key.hex())) {
                throw new InvalidArchiveException("object " + key.hex() + ": its content's SHA-256 is " + actual);
            }
            objects++;
        } catch (SQLException e) {
            failed = true;
            throw new IOException("object " + key.hex() + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        } catch (IOException | RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    @Override
    public void finish() throws IOException {
        ready();
        if (partOpen || nextPart < ArchivePart.ROWS.size()) {
            throw new IllegalStateException("finish before the rows of every part were written");
        }
        failed = true; // until the file is in place
        if (objects != header.count(ArchivePart.OBJECTS)) {
            throw new InvalidArchiveException("the header counts " + header.count(ArchivePart.OBJECTS)
                    + " objects, but " + objects + " were written");
        }
        Path db = scratch.resolve(EntryNames.DATABASE);
        try {
            String[] missing = database.missingObject();
            if (missing != null) {
                throw new InvalidArchiveException("node " + missing[1] + " has a file with key " + missing[0]
                        + ", but no object of that key was written");
            }
            database.commit();
            database.close();
        } catch (SQLException e) {
            throw new IOException("cannot complete the archive's database: " + e.getMessage(), e);
        }
        ZipWriter.Entry dbEntry;
        try (InputStream in = Files.newInputStream(db)) {
            dbEntry = zip.write(EntryNames.DATABASE, in, Files.size(db), compression, false);
        }
        byte[] metadata = metadata();
        // stored, as AiiDA stores it: a few hundred bytes gain nothing from deflate
        ZipWriter.Entry metaEntry =
                zip.write(EntryNames.METADATA, new ByteArrayInputStream(metadata), metadata.length, 0, false);
        zip.finish(metaEntry, dbEntry);
        Path built = scratch.resolve("archive.zip");
        try {
            Files.move(built, output, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            // the temporary folder was given on another file system
            Files.move(built, output);
        }
        finished = true;
        failed = false;
        Scratch.delete(scratch);
    }

    private byte[] metadata() {
        ObjectNode m = AiidaJson.MAPPER.createObjectNode();
        m.put("export_version", AiidaMetadata.VERSION);
        m.put("aiida_version", AIIDA_VERSION);
        m.put("key_format", AiidaMetadata.KEY_FORMAT);
        m.put("compression", compression);
        Instant created = header.created() != null ? header.created() : Instant.now();
        m.put("ctime", PYTHON_ISO.format(LocalDateTime.ofInstant(created, ZoneOffset.UTC)));
        m.set("creation_parameters", CreationParameters.toAiida(header.parameters()));
        m.withArrayProperty("conversion_info")
                .add("written by Cairn's AiidaArchiveWriter from the rows of " + header.producer() + " ("
                        + header.format() + " " + header.version() + ")");
        return AiidaJson.MAPPER.writeValueAsBytes(m);
    }

    private void ready() {
        if (header == null) {
            throw new IllegalStateException("begin first");
        }
        if (finished) {
            throw new IllegalStateException("the archive is finished");
        }
        if (failed) {
            throw new IllegalStateException("an earlier call failed: close this writer, which leaves no archive");
        }
    }

    @Override
    public void close() throws IOException {
        if (finished || scratch == null) {
            return;
        }
        if (database != null) {
            try {
                database.close();
            } catch (SQLException e) {
                // the database is scratch: it is deleted next
            }
        }
        if (zip != null) {
            zip.close();
        }
        Scratch.delete(scratch);
        scratch = null;
    }
}
