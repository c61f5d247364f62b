package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A consistent copy of a container into an empty folder while writers go on, linking the files that
 * did not change since a previous copy.
 *
 * <p>The pack lock is held throughout, so no packing, cleaning, repacking or deletion runs meanwhile:
 * an object is then in the index snapshot, or loose, or both, never moved between them behind the copy's
 * back. The index is copied first (SQLite's {@code VACUUM INTO}, a transactionally consistent copy) and
 * the packs after it: packs only grow, so each copied pack holds every byte the copied index points to.
 * Loose writes go on meanwhile; an object that lands after its folder was copied is newer than anything
 * the caller's earlier snapshot (a database dump) refers to, so missing it loses nothing.
 */
final class StoreCopy {

    private final ContainerParts parts;
    private long linked;
    private long copied;
    private long bytes;

    StoreCopy(ContainerParts parts) {
        this.parts = parts;
    }

    CopyReport run(Path target, Path previous, Consumer<String> progress) throws IOException {
        Files.createDirectories(target);
        try (var entries = Files.list(target)) {
            if (entries.findAny().isPresent()) {
                throw new IOException("cannot copy the object store into " + target + ": the folder is not empty");
            }
        }
        if (parts.remote() != null) {
            return fromBucket(target, previous, progress);
        }
        try (PackLock.Held held = parts.lock().acquire("copy the container")) {
            Path root = parts.root();
            Files.copy(root.resolve(ConfigFile.NAME), target.resolve(ConfigFile.NAME));
            progress.accept("pack index");
            copyIndex(target.resolve(PackIndex.FILE));
            Files.createDirectory(target.resolve(Sandbox.FOLDER));
            progress.accept("packs");
            copyFolder(
                    root.resolve(PackFiles.FOLDER), target.resolve(PackFiles.FOLDER), sub(previous, PackFiles.FOLDER));
            progress.accept("loose objects");
            copyFolder(
                    root.resolve(LooseFiles.FOLDER),
                    target.resolve(LooseFiles.FOLDER),
                    sub(previous, LooseFiles.FOLDER));
        }
        return new CopyReport(linked, copied, bytes);
    }

    /**
     * Copies a container in a bucket into a folder, as a container in a folder: the index (this host's
     * copy, brought up to date under the lock), then the packs, then the loose objects. Packs in a bucket
     * are never rewritten, so one the previous copy holds with the same size is linked.
     */
    private CopyReport fromBucket(Path target, Path previous, Consumer<String> progress) throws IOException {
        try (PackLock.Held held = parts.lock().acquire("copy the container")) {
            parts.cache().refresh();
            ConfigFile.write(target, parts.config());
            progress.accept("pack index");
            copyIndex(target.resolve(PackIndex.FILE));
            Files.createDirectory(target.resolve(Sandbox.FOLDER));
            progress.accept("packs");
            Path packs = Files.createDirectory(target.resolve(PackFiles.FOLDER));
            for (Map.Entry<Integer, Long> p : parts.index().packSizes().entrySet()) {
                String name = Integer.toString(p.getKey());
                Path old = previous == null
                        ? null
                        : previous.resolve(PackFiles.FOLDER).resolve(name);
                if (old != null && Files.isRegularFile(old) && Files.size(old) == p.getValue()) {
                    Files.createLink(packs.resolve(name), old);
                    linked++;
                    continue;
                }
                PackEntry whole =
                        new PackEntry(ObjectKey.ofWords(0, 0, 0, 0), p.getKey(), 0, p.getValue(), 0, Compression.NONE);
                try (InputStream in = parts.packs().stream(whole)) {
                    bytes += Files.copy(in, packs.resolve(name));
                }
                copied++;
            }
            progress.accept("loose objects");
            Path loose = Files.createDirectory(target.resolve(LooseFiles.FOLDER));
            List<ObjectKey> keys = new ArrayList<>();
            parts.loose().forEach(keys::add, bad -> {});
            for (ObjectKey k : keys) {
                try (InputStream in = parts.loose().open(k)) {
                    if (in == null) {
                        continue; // deleted since it was listed
                    }
                    Path shard = Files.createDirectories(loose.resolve(k.hex().substring(0, 2)));
                    bytes += Files.copy(in, shard.resolve(k.hex().substring(2)));
                    copied++;
                }
            }
        }
        return new CopyReport(linked, copied, bytes);
    }

    private static Path sub(Path previous, String folder) {
        return previous == null ? null : previous.resolve(folder);
    }

    private void copyIndex(Path to) throws IOException {
        String url = "jdbc:sqlite:" + parts.root().resolve(PackIndex.FILE);
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.execute("VACUUM INTO '" + to.toString().replace("'", "''") + "'");
        } catch (SQLException e) {
            throw new IOException("cannot copy the pack index to " + to + ": " + e.getMessage(), e);
        }
    }

    /** Copies a folder tree; a regular file the previous copy holds with the same size and time is linked. */
    private void copyFolder(Path from, Path to, Path previous) throws IOException {
        Files.createDirectories(to);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(from)) {
            for (Path entry : entries) {
                Path name = entry.getFileName();
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (NoSuchFileException gone) {
                    continue; // removed since the folder was listed (a loose write's leftover)
                }
                if (a.isDirectory()) {
                    copyFolder(entry, to.resolve(name), previous == null ? null : previous.resolve(name));
                } else if (a.isRegularFile()) {
                    copyFile(entry, a, to.resolve(name), previous == null ? null : previous.resolve(name));
                }
            }
        }
    }

    private void copyFile(Path from, BasicFileAttributes a, Path to, Path previous) throws IOException {
        if (previous != null && Files.isRegularFile(previous, LinkOption.NOFOLLOW_LINKS)) {
            BasicFileAttributes p = Files.readAttributes(previous, BasicFileAttributes.class);
            // copies keep the source's modification time, so equal size and time mean the file did not change
            if (p.size() == a.size() && p.lastModifiedTime().equals(a.lastModifiedTime())) {
                Files.createLink(to, previous);
                linked++;
                return;
            }
        }
        Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
        copied++;
        bytes += a.size();
    }
}
