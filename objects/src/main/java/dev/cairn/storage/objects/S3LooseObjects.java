package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Loose objects of a container in a bucket: one S3 object each, {@code loose/<key>}. The key is the
 * content's hash, so a PUT is idempotent: a retried or repeated write stores the same bytes under the same
 * name, and a reader sees the old whole object or the new whole object, never a part.
 *
 * <p>A stream is read into memory up to {@link #IN_MEMORY} bytes and sent in one PUT; a longer one is
 * spooled to the local sandbox (hashed on the way, since the name is the hash) and uploaded from there in
 * parts: bounded memory for an object of any size.
 */
final class S3LooseObjects implements LooseObjects {

    static final String FOLDER = "loose/";
    static final int IN_MEMORY = 8 << 20;
    private static final Pattern KEY = Pattern.compile("[0-9a-f]{64}");

    private final S3Bucket bucket;
    private final String prefix;
    private final Sandbox sandbox;

    S3LooseObjects(S3Bucket bucket, String prefix, Sandbox sandbox) {
        this.bucket = bucket;
        this.prefix = prefix + FOLDER;
        this.sandbox = sandbox;
    }

    private String name(ObjectKey key) {
        return prefix + key.hex();
    }

    @Override
    public ObjectKey write(InputStream in, Predicate<ObjectKey> held) throws IOException {
        byte[] head = in.readNBytes(IN_MEMORY);
        if (head.length < IN_MEMORY) {
            ObjectKey key = Sha256.keyOf(head);
            if (!held.test(key)) {
                bucket.put(name(key), head);
            }
            return key;
        }
        Path tmp = sandbox.newPath();
        try {
            MessageDigest digest = Sha256.newDigest();
            long size;
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW)) {
                digest.update(head);
                out.write(head);
                size = head.length;
                byte[] chunk = new byte[64 << 10];
                int n;
                while ((n = in.readNBytes(chunk, 0, chunk.length)) > 0) {
                    digest.update(chunk, 0, n);
                    out.write(chunk, 0, n);
                    size += n;
                }
            }
            ObjectKey key = ObjectKey.ofDigest(digest.digest());
            if (!held.test(key)) {
                bucket.putFile(name(key), tmp, size, null);
            }
            return key;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    @Override
    public void write(ObjectKey key, byte[] content) throws IOException {
        bucket.put(name(key), content);
    }

    @Override
    public boolean exists(ObjectKey key) throws IOException {
        return bucket.head(name(key)) != null;
    }

    @Override
    public byte[] read(ObjectKey key) throws IOException {
        return bucket.get(name(key));
    }

    @Override
    public InputStream open(ObjectKey key) throws IOException {
        return bucket.open(name(key));
    }

    @Override
    public long size(ObjectKey key) throws IOException {
        S3Bucket.Head h = bucket.head(name(key));
        return h == null ? -1 : h.size();
    }

    @Override
    public boolean delete(ObjectKey key) throws IOException {
        bucket.delete(name(key));
        return true;
    }

    @Override
    public Instant modified(ObjectKey key) throws IOException {
        S3Bucket.Head h = bucket.head(name(key));
        return h == null ? null : h.lastModified();
    }

    /**
     * S3 has no rename to set the object aside before its time is read, as a folder does: a put of the
     * same key that lands between this HEAD and DELETE (one request's time) is deleted with it.
     */
    @Override
    public boolean deleteUnlessNewer(ObjectKey key, Instant cutoff) throws IOException {
        S3Bucket.Head h = bucket.head(name(key));
        if (h == null) {
            return true;
        }
        if (h.lastModified().isAfter(cutoff)) {
            return false;
        }
        bucket.delete(name(key));
        return true;
    }

    @Override
    public int deleteWhere(Predicate<ObjectKey> doomed, int threads) throws IOException {
        List<String> names = new ArrayList<>();
        forEach(
                k -> {
                    if (doomed.test(k)) {
                        names.add(name(k));
                    }
                },
                bad -> {});
        bucket.deleteAll(names);
        return names.size();
    }

    @Override
    public void forEach(Consumer<ObjectKey> each, Consumer<String> malformed) throws IOException {
        bucket.list(prefix, null, o -> {
            String rest = o.key().substring(prefix.length());
            if (KEY.matcher(rest).matches()) {
                each.accept(ObjectKey.of(rest));
            } else {
                malformed.accept(o.key());
            }
        });
    }

    @Override
    public String where(ObjectKey key) {
        return bucket.describe(name(key));
    }

    @Override
    public Optional<Path> file(ObjectKey key) {
        return Optional.empty();
    }

    @Override
    public void close() {
        // the bucket's client belongs to the container
    }
}
