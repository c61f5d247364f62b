package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;
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
 *
 * <p>A bucket cannot set an object aside before reading its time, as a folder's rename does, so a sweep's
 * HEAD and DELETE of an old loose copy leave a moment in which a put of the same key (which a sweep had
 * marked, so the put writes a new copy) lands and is deleted with it. A put of a marked key therefore
 * first writes the content under {@code revived/<key>/<writer>} and only then its loose copy, and a
 * deletion lists {@code revived/<key>/} after its DELETE and puts the loose copy back from there if it
 * finds any. S3 is strongly consistent (a listing shows every object whose PUT was answered before it):
 * a put whose copy the DELETE removed had its record answered before that copy was sent, so before the
 * DELETE and the listing after it; a put whose record the listing misses sends its copy after the DELETE,
 * which then cannot remove it. The records go once their references have committed ({@link
 * #forgetRevivalsBefore}), a grace after they were written: only a sweep stalled longer than that between
 * its HEAD and its DELETE, while another swept, could miss one.
 */
final class S3LooseObjects implements LooseObjects {

    static final String FOLDER = "loose/";
    static final String REVIVED = "revived/";
    static final int IN_MEMORY = 8 << 20;
    private static final Pattern KEY = Pattern.compile("[0-9a-f]{64}");

    private final S3Bucket bucket;
    private final String prefix;
    private final String revived;
    private final Sandbox sandbox;

    S3LooseObjects(S3Bucket bucket, String prefix, Sandbox sandbox) {
        this.bucket = bucket;
        this.prefix = prefix + FOLDER;
        this.revived = prefix + REVIVED;
        this.sandbox = sandbox;
    }

    private String name(ObjectKey key) {
        return prefix + key.hex();
    }

    /** A new record of a put of a marked key: one per put, so that forgetting one never races with writing one. */
    private String newRevival(ObjectKey key) {
        return revived + key.hex() + "/" + UUID.randomUUID();
    }

    @Override
    public ObjectKey write(InputStream in, Function<ObjectKey, Found> found) throws IOException {
        byte[] head = in.readNBytes(IN_MEMORY);
        if (head.length < IN_MEMORY) {
            ObjectKey key = Sha256.keyOf(head);
            Found f = found.apply(key);
            if (f != Found.HELD) {
                write(key, head, f == Found.MARKED);
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
            Found f = found.apply(key);
            if (f == Found.MARKED) {
                bucket.putFile(newRevival(key), tmp, size, null); // answered before the copy is sent
            }
            if (f != Found.HELD) {
                bucket.putFile(name(key), tmp, size, null);
            }
            return key;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    @Override
    public void write(ObjectKey key, byte[] content, boolean marked) throws IOException {
        if (marked) {
            bucket.put(newRevival(key), content); // answered before the copy is sent
        }
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

    /** The loose copy is deleted, then put back if a put of the key recorded itself before the listing after. */
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
        String record = firstRevival(key);
        if (record != null) {
            restore(key, record);
            return false;
        }
        return true;
    }

    /** The name of a record of a put of {@code key}, or null when there is none. */
    private String firstRevival(ObjectKey key) throws IOException {
        String[] first = {null};
        bucket.list(revived + key.hex() + "/", null, o -> {
            if (first[0] == null) {
                first[0] = o.key();
            }
        });
        return first[0];
    }

    /** Puts the loose copy of {@code key} back from a record of a put of it, checking the content's hash. */
    private void restore(ObjectKey key, String record) throws IOException {
        try (InputStream in = bucket.open(record)) {
            if (in == null) {
                throw new NoSuchFileException(
                        bucket.describe(record),
                        null,
                        "this record of a put of " + key + " vanished before it was read");
            }
            // written only if the content is the key's; damage is reported, never stored
            ObjectKey actual = write(in, k -> k.equals(key) ? Found.MISSING : Found.HELD);
            if (!actual.equals(key)) {
                throw new CorruptObjectException(key, "its copy " + bucket.describe(record) + " hashes to " + actual);
            }
        }
    }

    @Override
    public int forgetRevivalsBefore(Instant cutoff) throws IOException {
        List<S3Bucket.Listed> old = new ArrayList<>();
        bucket.list(revived, null, o -> {
            if (o.lastModified().isBefore(cutoff)) {
                old.add(o);
            }
        });
        int restored = 0;
        List<String> names = new ArrayList<>();
        for (S3Bucket.Listed o : old) {
            String rest = o.key().substring(revived.length());
            String hex = rest.indexOf('/') < 0 ? rest : rest.substring(0, rest.indexOf('/'));
            if (KEY.matcher(hex).matches()) {
                ObjectKey key = ObjectKey.of(hex);
                if (!exists(key)) {
                    restore(key, o.key()); // a sweep stopped between its DELETE and its listing
                    restored++;
                }
            }
            names.add(o.key());
        }
        bucket.deleteAll(names);
        return restored;
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
    public void forEachSized(ObjLongConsumer<ObjectKey> each) throws IOException {
        bucket.list(prefix, null, o -> {
            String rest = o.key().substring(prefix.length());
            if (KEY.matcher(rest).matches()) {
                each.accept(ObjectKey.of(rest), o.size());
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
