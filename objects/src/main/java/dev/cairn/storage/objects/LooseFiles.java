package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Loose objects on a file system: one file each under {@code loose/ab/cdef…}. Writers need no lock: a new object is
 * written to the sandbox, hashed on the way, synced, and renamed into place, so readers and other
 * writers (threads or processes) only ever see whole objects.
 */
final class LooseFiles implements LooseObjects {

    static final String FOLDER = "loose";
    private static final int CHUNK = 64 << 10;
    private static final Pattern REST = Pattern.compile("[0-9a-f]{62}");
    private static final Pattern SHARD = Pattern.compile("[0-9a-f]{2}");

    private final Path dir;
    private final Sandbox sandbox;
    /** Open shard directories, kept for their fsync after each rename (one open() less per object). */
    private final FileChannel[] shardChannels = new FileChannel[256];

    LooseFiles(Path containerRoot, Sandbox sandbox) {
        this.dir = containerRoot.resolve(FOLDER);
        this.sandbox = sandbox;
    }

    @Override
    public Optional<Path> file(ObjectKey key) {
        return Optional.of(path(key));
    }

    @Override
    public String where(ObjectKey key) {
        String hex = key.hex();
        return FOLDER + "/" + hex.substring(0, 2) + "/" + hex.substring(2);
    }

    Path path(ObjectKey key) {
        String hex = key.hex();
        return dir.resolve(hex.substring(0, 2)).resolve(hex.substring(2));
    }

    /**
     * Streams {@code in} into a new loose object and returns its key. {@code found} tells whether the
     * store already holds the key (loose or packed) and may keep its copy, in which case nothing is moved
     * in place; otherwise the new file replaces any loose copy (a marked key's too: a sweep's rename sets
     * aside only the copy that was there before it).
     */
    @Override
    public ObjectKey write(InputStream in, Function<ObjectKey, Found> found) throws IOException {
        Path tmp = sandbox.newPath();
        boolean moved = false;
        try {
            MessageDigest digest = Sha256.newDigest();
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                byte[] chunk = new byte[CHUNK];
                ByteBuffer buf = ByteBuffer.wrap(chunk);
                int n;
                while ((n = in.readNBytes(chunk, 0, CHUNK)) > 0) {
                    digest.update(chunk, 0, n);
                    buf.clear().limit(n);
                    while (buf.hasRemaining()) {
                        out.write(buf);
                    }
                }
                // The content must be on disk before its name is: a crash after the rename must not
                // leave a named but empty or torn object.
                out.force(false);
            }
            ObjectKey key = ObjectKey.ofDigest(digest.digest());
            if (found.apply(key) != Found.HELD) {
                moveInPlace(tmp, key);
                moved = true;
            }
            return key;
        } finally {
            if (!moved) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /**
     * Writes bytes whose key the caller computed, and which the caller found missing (or pending deletion,
     * whose loose copy this replaces): a file system call saved per object counts on this path, which is
     * bound by metadata operations and fsyncs.
     */
    @Override
    public void write(ObjectKey key, byte[] content, boolean marked) throws IOException {
        Path tmp = sandbox.newPath();
        boolean moved = false;
        try {
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(content);
                while (buf.hasRemaining()) {
                    out.write(buf);
                }
                out.force(false);
            }
            moveInPlace(tmp, key); // replacing a copy a racing writer made is harmless: same content
            moved = true;
        } finally {
            if (!moved) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    private void moveInPlace(Path tmp, ObjectKey key) throws IOException {
        Path target = path(key);
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException e) {
            // First object of this shard: create the shard directory (and make its entry durable) only now,
            // so an empty container has no 256 empty directories.
            Path shard = target.getParent();
            try {
                Files.createDirectory(shard);
                Durability.fsyncDirectory(dir);
            } catch (FileAlreadyExistsException raced) {
                // another writer created it first
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        }
        // The rename is durable only once the directory that holds the new entry is synced.
        shardChannel(key).force(true);
    }

    private FileChannel shardChannel(ObjectKey key) throws IOException {
        int shard = Integer.parseInt(key.hex(), 0, 2, 16);
        FileChannel ch = shardChannels[shard];
        if (ch == null) {
            synchronized (shardChannels) {
                ch = shardChannels[shard];
                if (ch == null) {
                    ch = FileChannel.open(path(key).getParent(), StandardOpenOption.READ);
                    shardChannels[shard] = ch;
                }
            }
        }
        return ch;
    }

    @Override
    public boolean exists(ObjectKey key) {
        return Files.exists(path(key));
    }

    /** The content, or null when there is no such loose object. */
    @Override
    public byte[] read(ObjectKey key) throws IOException {
        try {
            return Files.readAllBytes(path(key));
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    @Override
    public InputStream open(ObjectKey key) throws IOException {
        try {
            return Channels.newInputStream(FileChannel.open(path(key), StandardOpenOption.READ));
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** The size in bytes, or -1 when there is no such loose object. */
    @Override
    public long size(ObjectKey key) throws IOException {
        try {
            return Files.size(path(key));
        } catch (NoSuchFileException e) {
            return -1;
        }
    }

    @Override
    public boolean delete(ObjectKey key) throws IOException {
        return Files.deleteIfExists(path(key));
    }

    @Override
    public Instant modified(ObjectKey key) throws IOException {
        try {
            return Files.getLastModifiedTime(path(key)).toInstant();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * The file is renamed into the sandbox before its time is read: a put that replaces it earlier is seen
     * there (and its file put back), one that replaces it later leaves a new file in place.
     */
    @Override
    public boolean deleteUnlessNewer(ObjectKey key, Instant cutoff) throws IOException {
        Path file = path(key);
        Path aside = sandbox.newPath();
        try {
            Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException gone) {
            return true;
        }
        if (Files.getLastModifiedTime(aside).toInstant().isAfter(cutoff)) {
            // a copy a put wrote since may be in place by now: replacing it changes nothing, same content
            Files.move(aside, file, StandardCopyOption.ATOMIC_MOVE);
            return false;
        }
        Files.delete(aside);
        return true;
    }

    /**
     * Deletes every loose object whose key {@code doomed} accepts, one task per shard directory on
     * {@code threads} threads; returns how many were deleted. Each shard is listed and cleared through
     * one open directory ({@code unlinkat} by name: a quarter cheaper than an unlink by full path,
     * measured here).
     */
    @Override
    public int deleteWhere(Predicate<ObjectKey> doomed, int threads) throws IOException {
        List<OrderedWork.Task<Integer>> tasks = new ArrayList<>();
        for (Path shard : shards(ignored -> {})) {
            tasks.add(() -> clearShard(shard, shard.getFileName().toString(), doomed));
        }
        int[] deleted = {0};
        OrderedWork.run(tasks, threads, threads, n -> deleted[0] += n);
        return deleted[0];
    }

    private static int clearShard(Path shard, String prefix, Predicate<ObjectKey> doomed) throws IOException {
        int n = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(shard)) {
            List<Path> names = new ArrayList<>();
            for (Path file : files) {
                String rest = file.getFileName().toString();
                if (REST.matcher(rest).matches() && doomed.test(ObjectKey.of(prefix + rest))) {
                    names.add(file.getFileName());
                }
            }
            for (Path name : names) {
                try {
                    if (files instanceof SecureDirectoryStream<Path> open) {
                        open.deleteFile(name);
                    } else {
                        Files.delete(shard.resolve(name));
                    }
                    n++;
                } catch (NoSuchFileException gone) {
                    // another cleaner was faster
                }
            }
        }
        return n;
    }

    @Override
    public void forEach(Consumer<ObjectKey> each, Consumer<String> malformed) throws IOException {
        Path root = dir.getParent();
        Consumer<Path> bad = p -> malformed.accept(root.relativize(p).toString());
        for (Path shard : shards(bad)) {
            String prefix = shard.getFileName().toString();
            try (DirectoryStream<Path> files = Files.newDirectoryStream(shard)) {
                for (Path file : files) {
                    String rest = file.getFileName().toString();
                    if (REST.matcher(rest).matches()) {
                        each.accept(ObjectKey.of(prefix + rest));
                    } else {
                        bad.accept(file);
                    }
                }
            }
        }
    }

    @Override
    public void forEachSized(ObjLongConsumer<ObjectKey> each) throws IOException {
        forEach(k -> each.accept(k, -1), malformed -> {});
    }

    /** The shard directories ({@code loose/00} … {@code loose/ff}); anything else there goes to {@code malformed}. */
    private List<Path> shards(Consumer<Path> malformed) throws IOException {
        List<Path> shards = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return shards;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                if (SHARD.matcher(entry.getFileName().toString()).matches() && Files.isDirectory(entry)) {
                    shards.add(entry);
                } else {
                    malformed.accept(entry);
                }
            }
        }
        return shards;
    }

    @Override
    public void close() throws IOException {
        synchronized (shardChannels) {
            for (int i = 0; i < shardChannels.length; i++) {
                if (shardChannels[i] != null) {
                    shardChannels[i].close();
                    shardChannels[i] = null;
                }
            }
        }
    }
}
