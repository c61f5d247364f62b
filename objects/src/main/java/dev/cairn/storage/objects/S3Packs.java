package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Packs of a container in a bucket: one S3 object each, {@code packs/<id>}, read with ranged GETs.
 *
 * <p>S3 objects cannot be appended to, so a pack is written once, whole: a {@link PackWriter} fills a file
 * in the local sandbox and publishes it (one PUT, or parts above {@link S3Bucket#SINGLE_PUT_MAX}) when it
 * is full or the batch commits, before the index points into it. A pack is created only if its name is
 * free: two writers never overwrite each other's pack, whatever happens to the lock.
 */
final class S3Packs implements Packs {

    static final String FOLDER = "packs/";
    /**
     * A pack or upload not in the index is a crashed writer's leftover once this old; a younger one may be
     * a live writer's, published and about to be committed.
     */
    static final Duration ORPHAN_AGE = Duration.ofHours(1);

    private final S3Bucket bucket;
    private final String prefix;
    private final Sandbox sandbox;
    private final String writer = UUID.randomUUID().toString();
    private final Map<Integer, Path> staged = new ConcurrentHashMap<>();
    private final Set<Integer> published = ConcurrentHashMap.newKeySet();

    S3Packs(S3Bucket bucket, String prefix, Sandbox sandbox) {
        this.bucket = bucket;
        this.prefix = prefix + FOLDER;
        this.sandbox = sandbox;
    }

    private String name(int pack) {
        return prefix + pack;
    }

    @Override
    public void readFully(int pack, long position, ByteBuffer buf) throws IOException {
        bucket.readRange(name(pack), position, buf);
    }

    @Override
    public InputStream stream(PackEntry e) throws IOException {
        return bucket.openRange(name(e.pack()), e.offset(), e.length());
    }

    /** None: ranged GETs read a bucket's packs. */
    @Override
    public PackFiles.Window window(int pack, long from, long to) {
        return null;
    }

    @Override
    public Map<Integer, Long> stored() throws IOException {
        Map<Integer, Long> found = new TreeMap<>();
        bucket.list(prefix, null, o -> {
            String name = o.key().substring(prefix.length());
            if (name.matches("0|[1-9][0-9]{0,8}")) {
                found.put(Integer.parseInt(name), o.size());
            }
        });
        return found;
    }

    @Override
    public Optional<Path> file(int pack) {
        return Optional.empty();
    }

    @Override
    public boolean appendable() {
        return false;
    }

    @Override
    public FileChannel openForWrite(int pack) throws IOException {
        Path file = sandbox.newPath();
        FileChannel ch = FileChannel.open(
                file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
        staged.put(pack, file);
        return ch;
    }

    /** Uploads each written pack from its local file; {@code sync} does not apply, a PUT is durable when it returns. */
    @Override
    public void publish(Map<Integer, FileChannel> written, Set<Integer> created, boolean sync) throws IOException {
        for (Map.Entry<Integer, FileChannel> w : written.entrySet()) {
            int pack = w.getKey();
            if (!bucket.putFile(name(pack), staged.get(pack), w.getValue().size(), writer)) {
                throw new ContainerLockedException("cannot publish pack " + pack + " to " + bucket.describe(prefix)
                        + ": another writer published a pack of that number first; this batch was rolled back");
            }
            published.add(pack);
        }
    }

    @Override
    public void finish(int pack, FileChannel written) throws IOException {
        written.close();
        Path file = staged.remove(pack);
        if (file != null) {
            Files.deleteIfExists(file);
        }
        published.remove(pack);
    }

    @Override
    public void discard(int pack, FileChannel written, long committedSize) throws IOException {
        if (written != null) {
            written.close();
        }
        Path file = staged.remove(pack);
        if (file != null) {
            Files.deleteIfExists(file);
        }
        if (published.remove(pack) || written == null) {
            bucket.delete(name(pack));
        }
    }

    @Override
    public void delete(int pack) throws IOException {
        bucket.delete(name(pack));
    }

    /** Deletes packs the index does not know and aborts uploads, once they are older than {@link #ORPHAN_AGE}. */
    @Override
    public void repairLeftovers(Map<Integer, Long> committed) throws IOException {
        Instant cutoff = Instant.now().minus(ORPHAN_AGE);
        List<String> orphans = new ArrayList<>();
        bucket.list(prefix, null, o -> {
            String name = o.key().substring(prefix.length());
            if (name.matches("0|[1-9][0-9]{0,8}")
                    && !committed.containsKey(Integer.parseInt(name))
                    && o.lastModified().isBefore(cutoff)) {
                orphans.add(o.key());
            }
        });
        bucket.deleteAll(orphans);
        bucket.abortUploadsBefore(prefix, cutoff);
        String container = prefix.substring(0, prefix.length() - FOLDER.length());
        bucket.abortUploadsBefore(container + S3LooseObjects.FOLDER, cutoff);
    }

    @Override
    public String where(int pack) {
        return bucket.describe(name(pack));
    }

    @Override
    public void close() {
        // the bucket's client belongs to the container
    }
}
