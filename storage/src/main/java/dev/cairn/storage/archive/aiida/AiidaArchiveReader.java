package dev.cairn.storage.archive.aiida;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.Map;

import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveReader;
import dev.cairn.storage.archive.InvalidArchiveException;
import dev.cairn.storage.objects.ObjectKey;

/**
 * Reads an AiiDA 2.x archive ({@code .aiida}, format {@code main_0001}) as Cairn's rows and objects.
 *
 * <p>Opening reads the zip's central directory (its records stream into a scratch SQLite index, so a
 * million entries cost no heap), checks every entry's name, reads {@code metadata.json}, extracts
 * {@code db.sqlite3} into a temporary folder, counts the rows of every part and walks every node's file
 * tree: the header's counts are exact, and an archive whose nodes name a missing object is refused before
 * a row is read. {@link #read} then streams each part from a database cursor and each object straight out
 * of the zip, checking its SHA-256 as it goes.
 *
 * <p>The zip's declared sizes are not trusted: every entry is inflated through {@link AiidaArchiveLimits}
 * and must end at its declared size and CRC. Anything wrong is an {@link InvalidArchiveException} naming
 * the archive, the entry or the table and row, and the part.
 */
public final class AiidaArchiveReader implements ArchiveReader {

    /** metadata.json is a few hundred bytes; its starting set of uuids may make it megabytes, not more. */
    private static final long MAX_METADATA = 64L << 20;

    private final FileChannel channel;
    private final String file;
    private final Path scratch;
    private final ArchiveIndex index;
    private final long directoryStart;
    private final AiidaArchiveLimits limits;
    private final InflationBudget budget;
    private final ArchiveHeader header;
    private boolean read;

    private AiidaArchiveReader(
            FileChannel channel,
            String file,
            Path scratch,
            ArchiveIndex index,
            long directoryStart,
            AiidaArchiveLimits limits,
            InflationBudget budget,
            ArchiveHeader header) {
        this.channel = channel;
        this.file = file;
        this.scratch = scratch;
        this.index = index;
        this.directoryStart = directoryStart;
        this.limits = limits;
        this.budget = budget;
        this.header = header;
    }

    /** Opens {@code archive} with the default limits, its scratch files under the system's temporary folder. */
    public static AiidaArchiveReader open(Path archive) throws IOException {
        return open(archive, AiidaArchiveLimits.defaults(), null);
    }

    /**
     * Opens {@code archive}; its scratch files (the extracted database, about the size of the archive's
     * rows, and the index) go in a new folder under {@code scratchParent} (the system's temporary folder
     * if null), removed on {@link #close}.
     */
    public static AiidaArchiveReader open(Path archive, AiidaArchiveLimits limits, Path scratchParent)
            throws IOException {
        String file = archive.getFileName() == null
                ? archive.toString()
                : archive.getFileName().toString();
        FileChannel channel;
        try {
            channel = FileChannel.open(archive, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new InvalidArchiveException("no archive at " + archive, e);
        }
        Path scratch = null;
        ArchiveIndex index = null;
        try {
            ZipDirectory directory = ZipDirectory.locate(channel, file);
            if (directory.entries() > limits.maxEntries()) {
                throw new InvalidArchiveException(file + " has " + directory.entries() + " entries, more than the "
                        + limits.maxEntries() + " an archive may have");
            }
            scratch = Scratch.create(scratchParent, "cairn-aiida-read-");
            index = ArchiveIndex.create(scratch.resolve("index.sqlite"), file);
            ZipEntryRecord[] special = scan(directory, index, file);
            index.refuseOverlaps();
            if (special[0] == null) {
                throw new InvalidArchiveException(file + " has no metadata.json: not an AiiDA archive");
            }
            InflationBudget budget = InflationBudget.of(limits, channel.size());
            AiidaMetadata metadata =
                    AiidaMetadata.parse(metadata(channel, file, special[0], directory.start(), limits, budget), file);
            if (special[1] == null) {
                throw new InvalidArchiveException(file + " has no db.sqlite3: not an AiiDA main_0001 archive");
            }
            Path database = scratch.resolve(EntryNames.DATABASE);
            try (InputStream in = ZipEntryInput.open(channel, file, special[1], directory.start(), limits, budget);
                    OutputStream out = Files.newOutputStream(database)) {
                in.transferTo(out);
            }
            index.attach(database);
            Map<ArchivePart, Long> counts = new EnumMap<>(index.countRows());
            counts.put(ArchivePart.OBJECTS, index.indexKeys());
            return new AiidaArchiveReader(
                    channel, file, scratch, index, directory.start(), limits, budget, metadata.header(counts));
        } catch (SQLException e) {
            InvalidArchiveException failure =
                    new InvalidArchiveException(file + " cannot be read: " + e.getMessage(), e);
            closeQuietly(channel, index, scratch, failure);
            throw failure;
        } catch (IOException | RuntimeException | Error e) {
            // an Error too (a class missing from the path, say): the scratch folder must not stay behind
            closeQuietly(channel, index, scratch, e);
            throw e;
        }
    }

    /**
     * Checks every entry's name and indexes it (a name twice is refused there); returns the entries of
     * metadata.json and db.sqlite3. Other entries than those and the objects (a folder entry a zip tool
     * added, say) are none of AiiDA's and are left alone.
     */
    private static ZipEntryRecord[] scan(ZipDirectory directory, ArchiveIndex index, String file) throws IOException {
        ZipEntryRecord[] special = new ZipEntryRecord[2];
        directory.read(entry -> {
            EntryNames.check(file, entry.name());
            try {
                index.addEntry(EntryNames.objectKey(entry.name()), entry);
            } catch (SQLException e) {
                throw new IOException("indexing " + entry.name() + " of " + file, e);
            }
            if (entry.name().equals(EntryNames.METADATA)) {
                special[0] = entry;
            } else if (entry.name().equals(EntryNames.DATABASE)) {
                special[1] = entry;
            }
        });
        return special;
    }

    private static byte[] metadata(
            FileChannel channel,
            String file,
            ZipEntryRecord entry,
            long directoryStart,
            AiidaArchiveLimits limits,
            InflationBudget budget)
            throws IOException {
        if (entry.size() > MAX_METADATA) {
            throw new InvalidArchiveException(file + ": metadata.json declares " + entry.size()
                    + " bytes, more than the " + MAX_METADATA + " a metadata file may have");
        }
        try (InputStream in = ZipEntryInput.open(channel, file, entry, directoryStart, limits, budget)) {
            return in.readAllBytes();
        }
    }

    @Override
    public ArchiveHeader header() {
        return header;
    }

    @Override
    public void read(Visitor visitor) throws IOException {
        if (read) {
            throw new IllegalStateException("an archive is read once; open it again to read it again");
        }
        read = true;
        try {
            for (ArchivePart part : ArchivePart.ROWS) {
                try (RowStream rows = ArchiveRows.open(index.connection(), part, file)) {
                    visitor.rows(part, rows);
                }
            }
            try (Statement s = index.connection().createStatement();
                    ResultSet r = index.objects(s)) {
                while (r.next()) {
                    String key = r.getString(1);
                    ZipEntryRecord entry = new ZipEntryRecord(
                            EntryNames.REPO + key,
                            r.getInt(2),
                            r.getInt(3),
                            r.getLong(4),
                            r.getLong(5),
                            r.getLong(6),
                            r.getLong(7));
                    try (ZipEntryInput raw = ZipEntryInput.open(channel, file, entry, directoryStart, limits, budget);
                            InputStream checked =
                                    new Sha256Input(raw, key, entry.size(), file + ", entry '" + entry.name() + "'")) {
                        visitor.object(ObjectKey.of(key), entry.size(), checked);
                    }
                }
            }
        } catch (SQLException e) {
            throw new InvalidArchiveException(file + " cannot be read: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        closeQuietly(channel, index, scratch, null);
    }

    private static void closeQuietly(FileChannel channel, ArchiveIndex index, Path scratch, Throwable failure)
            throws IOException {
        IOException first = null;
        try {
            channel.close();
        } catch (IOException e) {
            first = e;
        }
        if (index != null) {
            try {
                index.close();
            } catch (SQLException e) {
                // the index is scratch: it is deleted next
            }
        }
        if (scratch != null) {
            try {
                Scratch.delete(scratch);
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            if (failure != null) {
                failure.addSuppressed(first);
            } else {
                throw first;
            }
        }
    }
}
