package dev.cairn.storage.objects;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The pack index of a container in a bucket, as the bucket holds it: a log of the index's transactions,
 * one object each, {@code index/log/0000000000000000001}, …, numbered without gaps. Each host keeps a
 * copy in a local {@link PackIndex} and applies the entries it lacks.
 *
 * <p>An entry is created only if its number is free (a conditional PUT, {@code If-None-Match: *}): that
 * is the commit, and the one guarantee that two writers never both build on the same state, even when a
 * lock's lease ran out under a paused holder. A writer that loses rolls back. The log is the bucket's
 * truth and the local database a cache: a host rebuilds its copy from the log alone.
 */
final class IndexLog {

    static final String FOLDER = "index/log/";
    /** Copies of the whole index as of a log entry, {@code index/checkpoint/<entry>}: where a new host starts. */
    static final String CHECKPOINTS = "index/checkpoint/";

    private static final long MAGIC = 0x434149524e4c4f47L; // "CAIRNLOG"
    private static final int VERSION = 1;

    private static final byte ADD_SEGMENT = 1;
    private static final byte REPLACE_ALL = 2;
    private static final byte SET_PACK_SIZE = 3;
    private static final byte DROP_PACK = 4;
    private static final byte MARK = 5;
    private static final byte UNMARK = 6;
    private static final byte STAMP = 7;
    private static final byte RESERVE = 8;

    private final S3Bucket bucket;
    private final String prefix;
    /** Tells this process's entries from others': a retried PUT whose first try landed finds its own entry. */
    private final String writer = UUID.randomUUID().toString();

    IndexLog(S3Bucket bucket, String prefix) {
        this.bucket = bucket;
        this.prefix = prefix;
    }

    static String name(long seq) {
        return String.format("%019d", seq);
    }

    private String key(long seq) {
        return prefix + FOLDER + name(seq);
    }

    /** Receives entries in order. */
    interface EntrySink {
        void entry(long seq, byte[] bytes) throws IOException;
    }

    /** Hands the entries numbered above {@code seq} to {@code sink}, in order. */
    void entriesAfter(long seq, EntrySink sink) throws IOException {
        List<String> names = new ArrayList<>();
        bucket.list(prefix + FOLDER, key(seq), o -> names.add(o.key()));
        long expected = seq + 1;
        for (String name : names) {
            long n = Long.parseLong(name.substring(name.length() - 19));
            if (n != expected) {
                throw new Gap("the index log in " + bucket.describe(prefix) + " lacks entry " + expected + " (found "
                        + n + " next): it was pruned after a checkpoint");
            }
            byte[] bytes = bucket.get(name);
            if (bytes == null) {
                throw new IOException("index log entry " + name + " was listed but cannot be read");
            }
            sink.entry(n, bytes);
            expected++;
        }
    }

    /** Entries a copy needs were pruned: it starts again from the newest checkpoint. */
    static final class Gap extends IOException {
        Gap(String message) {
            super(message);
        }
    }

    /** The number of the newest checkpoint, or 0 when there is none. */
    long latestCheckpoint() throws IOException {
        long[] newest = {0};
        bucket.list(prefix + CHECKPOINTS, null, o -> newest[0] = Math.max(newest[0], number(o.key())));
        return newest[0];
    }

    private static long number(String key) {
        return Long.parseLong(key.substring(key.length() - 19));
    }

    /** Downloads checkpoint {@code seq} into {@code file}. */
    void downloadCheckpoint(long seq, Path file) throws IOException {
        try (InputStream in = bucket.open(prefix + CHECKPOINTS + name(seq))) {
            if (in == null) {
                throw new IOException("checkpoint " + seq + " of the index in " + bucket.describe(prefix) + " is gone");
            }
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Publishes {@code file}, a copy of the index as of entry {@code seq}, as a checkpoint, then prunes what
     * the checkpoint before it made unneeded: that one's entries and older checkpoints. Entries after the
     * previous checkpoint stay, so a host a little behind catches up from the log, not a whole copy.
     */
    void checkpoint(long seq, Path file) throws IOException {
        long previous = latestCheckpoint();
        if (seq <= previous) {
            return;
        }
        bucket.putFile(prefix + CHECKPOINTS + name(seq), file, Files.size(file), writer);
        List<String> doomed = new ArrayList<>();
        bucket.list(prefix + CHECKPOINTS, null, o -> {
            if (number(o.key()) < previous) {
                doomed.add(o.key());
            }
        });
        bucket.list(prefix + FOLDER, null, o -> {
            if (number(o.key()) <= previous) {
                doomed.add(o.key());
            }
        });
        bucket.deleteAll(doomed);
    }

    /** A new entry building on the entries up to {@code base}. */
    Entry newEntry(long base) {
        return new Entry(base);
    }

    /** Publishes the entry as number base + 1; returns that number, or fails when another writer took it. */
    long publish(Entry entry, byte[] bytes) throws IOException {
        long seq = entry.base + 1;
        if (!bucket.createIfAbsent(key(seq), bytes, writer)) {
            throw entry.lost("another process committed entry " + seq + " of the index log first");
        }
        return seq;
    }

    /** Replays an entry's operations into a transaction of a local copy. */
    static void replay(byte[] bytes, IndexTransaction tx) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        if (in.readLong() != MAGIC) {
            throw new IOException("not an index log entry");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new IOException("index log entry of version " + version + ": this version of Cairn reads " + VERSION);
        }
        int ops = in.readInt();
        for (int i = 0; i < ops; i++) {
            byte op = in.readByte();
            switch (op) {
                case ADD_SEGMENT -> tx.store(blob(in));
                case REPLACE_ALL -> {
                    int n = in.readInt();
                    List<byte[]> segments = new ArrayList<>(n);
                    for (int j = 0; j < n; j++) {
                        segments.add(blob(in));
                    }
                    tx.replaceAll(segments);
                }
                case SET_PACK_SIZE -> tx.setPackSize(in.readInt(), in.readLong());
                case DROP_PACK -> tx.dropPack(in.readInt());
                case MARK -> tx.mark(keys(in));
                case UNMARK -> tx.unmark(keys(in));
                case STAMP -> tx.stampMarks(in.readLong());
                case RESERVE -> tx.reservePackIds(in.readInt());
                default -> throw new IOException("index log entry with unknown operation " + op);
            }
        }
    }

    private static byte[] blob(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return b;
    }

    private static List<ObjectKey> keys(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<ObjectKey> keys = new ArrayList<>(n);
        byte[] digest = new byte[32];
        for (int i = 0; i < n; i++) {
            in.readFully(digest);
            keys.add(ObjectKey.ofDigest(digest));
        }
        return keys;
    }

    /** A transaction's operations as they run, in the form the log stores. */
    final class Entry {
        private final long base;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(buffer);
        private int ops;

        private Entry(long base) {
            this.base = base;
        }

        long base() {
            return base;
        }

        ContainerLockedException lost(String why) {
            return new ContainerLockedException("cannot commit to the index of " + bucket.describe(prefix) + ": " + why
                    + "; this batch was rolled back, try again");
        }

        void addSegment(byte[] records) {
            op(ADD_SEGMENT);
            writeBlob(records);
        }

        void replaceAll(List<byte[]> segments) {
            op(REPLACE_ALL);
            write(() -> out.writeInt(segments.size()));
            segments.forEach(this::writeBlob);
        }

        void setPackSize(int pack, long size) {
            op(SET_PACK_SIZE);
            write(() -> {
                out.writeInt(pack);
                out.writeLong(size);
            });
        }

        void dropPack(int pack) {
            op(DROP_PACK);
            write(() -> out.writeInt(pack));
        }

        void mark(Collection<ObjectKey> keys) {
            op(MARK);
            writeKeys(keys);
        }

        void unmark(Collection<ObjectKey> keys) {
            op(UNMARK);
            writeKeys(keys);
        }

        void stampMarks(long millis) {
            op(STAMP);
            write(() -> out.writeLong(millis));
        }

        void reservePackIds(int next) {
            op(RESERVE);
            write(() -> out.writeInt(next));
        }

        private void op(byte code) {
            ops++;
            write(() -> out.writeByte(code));
        }

        private void writeBlob(byte[] b) {
            write(() -> {
                out.writeInt(b.length);
                out.write(b);
            });
        }

        private void writeKeys(Collection<ObjectKey> keys) {
            write(() -> {
                out.writeInt(keys.size());
                for (ObjectKey k : keys) {
                    out.write(k.digest());
                }
            });
        }

        private interface Write {
            void run() throws IOException;
        }

        private void write(Write w) {
            try {
                w.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
            }
        }

        byte[] bytes() throws IOException {
            ByteArrayOutputStream whole = new ByteArrayOutputStream(buffer.size() + 16);
            DataOutputStream head = new DataOutputStream(whole);
            head.writeLong(MAGIC);
            head.writeInt(VERSION);
            head.writeInt(ops);
            buffer.writeTo(whole);
            return whole.toByteArray();
        }
    }
}
