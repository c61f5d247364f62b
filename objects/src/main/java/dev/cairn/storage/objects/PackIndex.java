package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.sqlite.SQLiteConfig;

/**
 * The durable index of packed objects, {@code packs.idx}: an SQLite database in WAL mode, so readers in
 * any process go on while one packer writes.
 *
 * <p>Each committed batch is one row of table {@code segment}: the batch's entries (key, pack, offset,
 * stored length, size, compression) as sorted fixed-width records in a BLOB. One row per object was
 * measured first and rejected: a row's insert through JDBC (more with a second index) alone costs more
 * than a bulk pack write may spend on an object, and B-tree inserts slow down as the
 * table grows. A segment costs one BLOB write, loads into the {@link IndexCache} at memory speed, and
 * keeps batch commits linear in the batch size. Deletes and repacks rewrite the segments compactly and
 * bump the epoch; inserts get increasing segment numbers; both let each process keep its cache current
 * with one small query.
 *
 * <p>Table {@code deletion_mark} holds the keys a {@link Sweep} marked pending deletion, with the time
 * each mark was stamped; counter {@code marks} moves whenever the set of keys changes. A container made
 * before marks existed gets the table the next time it is opened.
 *
 * <p>Two connections: one reads (each statement its own snapshot), one writes under the pack lock, so a
 * reader in this process never sees a transaction that may yet roll back.
 *
 * <p>Of a container in a bucket, this database is the host's copy of the {@link IndexLog} in the bucket,
 * written only by applying the log's entries in order (counter {@code logSeq} says how far): a
 * transaction is recorded as it runs, published as the log's next entry, then applied here; the entries
 * of other hosts are applied by {@link #catchUp}. Everything else reads it as it reads the index of a
 * container in a folder.
 */
final class PackIndex implements AutoCloseable {

    static final String FILE = "packs.idx";
    /** More segments than this are merged into a few large ones at the next commit. */
    static final int COMPACT_AT = 32;

    private final Connection conn;
    /** The bucket's log of which this is a copy, or null for a container in a folder. */
    private final IndexLog log;
    /** The folder of the database file. */
    private final Path root;

    private final Connection writer;

    private final PreparedStatement state;
    private final PreparedStatement dataVersion;

    /**
     * The index's change counters: {@code epoch} moves on rewrites (deletes, repacks, compaction),
     * {@code seq} is the newest segment, {@code marks} moves when keys are marked or unmarked.
     */
    record State(long epoch, long seq, int segments, long marks) {}

    /** One consistent read: the state, and the marked keys unless their version was the one known (null). */
    record Read(State state, Marks marks) {}

    /** Receives stored segments. */
    interface SegmentSink {
        void segment(long seq, byte[] records) throws IOException;
    }

    PackIndex(Path containerRoot, boolean synchronous, IndexLog log) throws IOException {
        this.log = log;
        this.root = containerRoot;
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        // FULL: a commit is on disk when it returns; the index is written after the pack bytes are synced.
        config.setSynchronous(synchronous ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(60_000);
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        String url = "jdbc:sqlite:" + containerRoot.resolve(FILE);
        try {
            writer = config.createConnection(url);
            try (Statement s = writer.createStatement()) {
                // AUTOINCREMENT: a segment number is never reused, even after a rewrite deleted every row.
                s.executeUpdate("CREATE TABLE IF NOT EXISTS segment("
                        + "seq INTEGER PRIMARY KEY AUTOINCREMENT, count INTEGER NOT NULL, records BLOB NOT NULL)");
                s.executeUpdate("CREATE TABLE IF NOT EXISTS pack(id INTEGER PRIMARY KEY, size INTEGER NOT NULL)");
                s.executeUpdate("CREATE TABLE IF NOT EXISTS counter(name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
                // marked_at is null until stamped, after the mark's commit (see Sweep)
                s.executeUpdate("CREATE TABLE IF NOT EXISTS deletion_mark("
                        + "key BLOB PRIMARY KEY, marked_at INTEGER) WITHOUT ROWID");
                s.executeUpdate(
                        "INSERT OR IGNORE INTO counter VALUES ('epoch', 0), ('nextPack', 0), ('marks', 0), ('logSeq', 0)");
            }
            // The reader's snapshots must be DEFERRED: an IMMEDIATE one would wait for the writer's lock.
            config.setTransactionMode(SQLiteConfig.TransactionMode.DEFERRED);
            conn = config.createConnection(url);
            state = conn.prepareStatement("SELECT (SELECT value FROM counter WHERE name = 'epoch'), "
                    + "(SELECT coalesce(max(seq), 0) FROM segment), (SELECT count(*) FROM segment), "
                    + "(SELECT value FROM counter WHERE name = 'marks')");
            dataVersion = conn.prepareStatement("PRAGMA data_version");
        } catch (SQLException e) {
            throw new IOException(
                    "cannot open the pack index " + containerRoot.resolve(FILE) + ": " + e.getMessage(), e);
        }
    }

    synchronized State state() throws IOException {
        try (ResultSet rs = state.executeQuery()) {
            return state(rs);
        } catch (SQLException e) {
            throw failure("read the index counters", e);
        }
    }

    /**
     * A number that changes whenever a connection other than the reading one commits to the index: this
     * process's writer, or any other process. Cheaper than {@link #state()}, which reads three tables.
     */
    synchronized long dataVersion() throws IOException {
        try (ResultSet rs = dataVersion.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw failure("read the index's data version", e);
        }
    }

    private static State state(ResultSet rs) throws SQLException {
        rs.next();
        return new State(rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getLong(4));
    }

    /**
     * The segments numbered above {@code seq}, in order, and the state they belong to; the marked keys
     * too, unless their version is {@code knownMarks}. One snapshot.
     */
    synchronized Read segmentsAfter(long seq, long knownMarks, SegmentSink sink) throws IOException {
        try {
            // One read transaction, so the state, the segments and the marks agree even while a packer commits.
            conn.setAutoCommit(false);
            State st;
            try (ResultSet rs = state.executeQuery()) {
                st = state(rs);
            }
            try (PreparedStatement ps =
                    conn.prepareStatement("SELECT seq, records FROM segment WHERE seq > ? ORDER BY seq")) {
                ps.setLong(1, seq);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        sink.segment(rs.getLong(1), rs.getBytes(2));
                    }
                }
            }
            if (st.marks() == knownMarks) {
                return new Read(st, null);
            }
            List<byte[]> marked = new ArrayList<>();
            try (Statement s = conn.createStatement();
                    ResultSet rs = s.executeQuery("SELECT key FROM deletion_mark ORDER BY key")) {
                while (rs.next()) {
                    marked.add(rs.getBytes(1));
                }
            }
            return new Read(st, Marks.ofSortedDigests(marked));
        } catch (SQLException e) {
            throw failure("read the index", e);
        } finally {
            try {
                conn.commit();
                conn.setAutoCommit(true);
            } catch (SQLException ignored) {
                // the connection is broken; the next statement reports it
            }
        }
    }

    /**
     * The lowest pack id never used. Ids are never reused: a process with a stale cache may still point
     * into a deleted pack, and must find it gone rather than find other bytes under its name.
     */
    synchronized int nextPackId() throws IOException {
        return (int) counter(conn, "nextPack");
    }

    /** Committed sizes of the packs: a pack's bytes past its size are leftovers of an interrupted write. */
    synchronized Map<Integer, Long> packSizes() throws IOException {
        Map<Integer, Long> sizes = new HashMap<>();
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, size FROM pack")) {
            while (rs.next()) {
                sizes.put(rs.getInt(1), rs.getLong(2));
            }
        } catch (SQLException e) {
            throw failure("read the pack sizes", e);
        }
        return sizes;
    }

    /** Each marked key with the epoch millisecond of its stamp, or null when not yet stamped. */
    synchronized Map<ObjectKey, Long> markTimes() throws IOException {
        Map<ObjectKey, Long> marks = new HashMap<>();
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("SELECT key, marked_at FROM deletion_mark")) {
            while (rs.next()) {
                long at = rs.getLong(2);
                marks.put(ObjectKey.ofDigest(rs.getBytes(1)), rs.wasNull() ? null : at);
            }
        } catch (SQLException e) {
            throw failure("read the deletion marks", e);
        }
        return marks;
    }

    /** How far this copy has applied the bucket's log: the sequence number of the last entry applied. */
    synchronized long logSeq() throws IOException {
        return counter(conn, "logSeq");
    }

    /**
     * Applies the entries of the bucket's log that this copy lacks; nothing for a container in a folder. A
     * new copy, or one whose next entries were pruned, starts from the newest checkpoint.
     */
    void catchUp() throws IOException {
        if (log == null) {
            return;
        }
        if (logSeq() == 0) {
            long checkpoint = log.latestCheckpoint();
            if (checkpoint > 0) {
                restore(checkpoint);
            }
        }
        try {
            log.entriesAfter(logSeq(), this::apply);
        } catch (IndexLog.Gap gap) {
            restore(log.latestCheckpoint());
            log.entriesAfter(logSeq(), this::apply);
        }
    }

    /** Replaces this copy's contents by checkpoint {@code seq} of the bucket, in one transaction. */
    private void restore(long seq) throws IOException {
        Path file = root.resolve(FILE + ".checkpoint");
        log.downloadCheckpoint(seq, file);
        synchronized (writer) {
            try (Statement s = writer.createStatement()) {
                s.execute("ATTACH DATABASE '" + file.toString().replace("'", "''") + "' AS cp");
                try (IndexTransaction tx = new IndexTransaction(writer, null, this)) {
                    if (counter(writer, "logSeq") < seq) {
                        s.executeUpdate("DELETE FROM segment");
                        s.executeUpdate("INSERT INTO segment(count, records) SELECT count, records FROM cp.segment"
                                + " ORDER BY seq");
                        s.executeUpdate("DELETE FROM pack");
                        s.executeUpdate("INSERT INTO pack SELECT id, size FROM cp.pack");
                        s.executeUpdate("DELETE FROM deletion_mark");
                        s.executeUpdate("INSERT INTO deletion_mark SELECT key, marked_at FROM cp.deletion_mark");
                        s.executeUpdate("UPDATE counter SET value = (SELECT value FROM cp.counter WHERE name ="
                                + " 'nextPack') WHERE name = 'nextPack'");
                        // a new epoch and marks version: every process's cache reloads all of it
                        s.executeUpdate("UPDATE counter SET value = value + 1 WHERE name IN ('epoch', 'marks')");
                        tx.update("UPDATE counter SET value = ? WHERE name = 'logSeq'", seq);
                        tx.commitLocally();
                    }
                }
                s.execute("DETACH DATABASE cp");
            } catch (SQLException e) {
                throw failure("restore checkpoint " + seq + " of the index", e);
            } finally {
                Files.deleteIfExists(file);
            }
        }
    }

    /**
     * Publishes a copy of this index, as of the last entry applied, as the bucket's newest checkpoint (and
     * prunes the log behind the one before); nothing for a container in a folder. Runs under the pack lock.
     */
    void checkpoint() throws IOException {
        if (log == null) {
            return;
        }
        catchUp();
        Path file = root.resolve(FILE + ".checkpoint");
        Files.deleteIfExists(file);
        long seq;
        synchronized (this) {
            synchronized (writer) {
                try (IndexTransaction hold = new IndexTransaction(writer, null, this);
                        Statement s = conn.createStatement()) {
                    // the write lock keeps other processes of this host from applying entries while it is copied
                    seq = counter(writer, "logSeq");
                    s.execute("VACUUM INTO '" + file.toString().replace("'", "''") + "'");
                } catch (SQLException e) {
                    throw failure("copy the index for a checkpoint", e);
                }
            }
        }
        try {
            log.checkpoint(seq, file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Applies one entry of the bucket's log, unless this copy has it (another process of this host applied it). */
    private void apply(long seq, byte[] entry) throws IOException {
        synchronized (writer) {
            try (IndexTransaction tx = new IndexTransaction(writer, null, this)) {
                long applied = counter(writer, "logSeq");
                if (applied >= seq) {
                    return;
                }
                if (applied != seq - 1) {
                    throw new IOException("pack index: the log in the bucket goes from entry " + seq
                            + " while this copy has applied up to " + applied + " only");
                }
                IndexLog.replay(entry, tx);
                tx.update("UPDATE counter SET value = ? WHERE name = 'logSeq'", seq);
                tx.commitLocally();
            }
        }
    }

    /** A counter as a connection sees it (the writer: in its transaction). */
    private long counter(Connection c, String name) throws IOException {
        try (PreparedStatement ps = c.prepareStatement("SELECT value FROM counter WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        } catch (SQLException e) {
            throw failure("read counter " + name, e);
        }
    }

    /**
     * Starts a write transaction; callers hold the pack lock, so it rarely waits. Of a container in a
     * bucket, it builds on the log entries applied so far: the caller refreshed its view of the index
     * under the lock.
     */
    IndexTransaction begin() throws IOException {
        return new IndexTransaction(writer, log == null ? null : log.newEntry(logSeq()), this);
    }

    /**
     * Publishes a recorded transaction as the bucket log's next entry, which is the commit every host sees
     * (and fails when another process published that entry first), then applies it to this copy.
     */
    void publish(IndexLog.Entry entry) throws IOException {
        byte[] bytes = entry.bytes();
        apply(log.publish(entry, bytes), bytes);
    }

    void vacuum() throws IOException {
        synchronized (writer) {
            try (Statement s = writer.createStatement()) {
                s.executeUpdate("VACUUM");
                s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
            } catch (SQLException e) {
                throw failure("vacuum", e);
            }
        }
    }

    /** SQLite's own structural check of the index file. */
    synchronized String integrityCheck() throws IOException {
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA quick_check")) {
            StringBuilder out = new StringBuilder();
            while (rs.next()) {
                out.append(rs.getString(1)).append('\n');
            }
            return out.toString().strip();
        } catch (SQLException e) {
            throw failure("check the index file", e);
        }
    }

    static IOException failure(String what, SQLException e) {
        return new IOException("pack index: cannot " + what + ": " + e.getMessage(), e);
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            state.close();
            dataVersion.close();
            conn.close();
        } catch (SQLException e) {
            throw failure("close", e);
        } finally {
            synchronized (writer) {
                try {
                    writer.close();
                } catch (SQLException e) {
                    throw failure("close", e);
                }
            }
        }
    }
}
