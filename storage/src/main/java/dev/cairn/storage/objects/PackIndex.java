package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.sqlite.SQLiteConfig;

/**
 * The durable index of packed objects, {@code packs.idx}: an SQLite database in WAL mode, so readers in
 * any process go on while one packer writes. Keys are 32-byte BLOBs in a WITHOUT ROWID table (half the
 * size of hex text, and the fastest layout measured for inserts and look-ups). Every batch of inserts
 * gets a sequence number and every delete or relocation bumps the epoch, which lets each process keep
 * its {@link IndexCache} current with one small query.
 *
 * <p>Two connections: one reads (each statement its own snapshot), one writes under the pack lock, so a
 * reader in this process never sees a transaction that may yet roll back.
 */
final class PackIndex implements AutoCloseable {

    static final String FILE = "packs.idx";
    private static final int IN_BATCH = 500;

    private final Connection conn;
    private final Connection writer;
    private final PreparedStatement insert;
    private final PreparedStatement state;

    /** The index's change counters: {@code epoch} moves on deletes and relocations, {@code seq} on inserts. */
    record State(long epoch, long seq) {
    }

    PackIndex(Path containerRoot, boolean synchronous) throws IOException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        // FULL: a commit is on disk when it returns; the index is written after the pack bytes are synced.
        config.setSynchronous(synchronous ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(60_000);
        config.setCacheSize(-32768); // 32 MiB of page cache: inserts of a million keys stay in memory
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        try {
            String url = "jdbc:sqlite:" + containerRoot.resolve(FILE);
            writer = config.createConnection(url);
            try (Statement s = writer.createStatement()) {
                s.executeUpdate("""
                        CREATE TABLE IF NOT EXISTS object(
                          hash BLOB PRIMARY KEY, pack INTEGER NOT NULL, offset INTEGER NOT NULL,
                          length INTEGER NOT NULL, size INTEGER NOT NULL, codec INTEGER NOT NULL,
                          seq INTEGER NOT NULL) WITHOUT ROWID""");
                s.executeUpdate("CREATE INDEX IF NOT EXISTS object_seq ON object(seq)");
                s.executeUpdate("CREATE TABLE IF NOT EXISTS pack(id INTEGER PRIMARY KEY, size INTEGER NOT NULL)");
                s.executeUpdate("CREATE TABLE IF NOT EXISTS counter(name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
                s.executeUpdate("INSERT OR IGNORE INTO counter VALUES ('epoch', 0), ('seq', 0), ('nextPack', 0)");
            }
            conn = config.createConnection(url);
            insert = writer.prepareStatement("INSERT OR IGNORE INTO object VALUES (?, ?, ?, ?, ?, ?, ?)");
            state = conn.prepareStatement("SELECT max(CASE name WHEN 'epoch' THEN value END), "
                    + "max(CASE name WHEN 'seq' THEN value END) FROM counter");
        } catch (SQLException e) {
            throw new IOException("cannot open the pack index " + containerRoot.resolve(FILE) + ": " + e.getMessage(), e);
        }
    }

    synchronized State state() throws IOException {
        try (ResultSet rs = state.executeQuery()) {
            rs.next();
            return new State(rs.getLong(1), rs.getLong(2));
        } catch (SQLException e) {
            throw failure("read the index counters", e);
        }
    }

    /** Receives index rows as they are stored, without building keys (loading the cache is a hot path). */
    interface RowSink {
        void row(byte[] hash, int pack, long offset, long length, long size, int codec);
    }

    /** Every entry in key order (the primary key's own order: no sort); for loading the cache. */
    synchronized void scan(RowSink sink) throws IOException {
        query("SELECT hash, pack, offset, length, size, codec FROM object ORDER BY hash", -1, sink);
    }

    /** Entries inserted in batches after {@code seq}. */
    synchronized void scanSince(long seq, RowSink sink) throws IOException {
        query("SELECT hash, pack, offset, length, size, codec FROM object WHERE seq > ?", seq, sink);
    }

    private void query(String sql, long seq, RowSink sink) throws IOException {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            if (seq >= 0) {
                ps.setLong(1, seq);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sink.row(rs.getBytes(1), rs.getInt(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getInt(6));
                }
            }
        } catch (SQLException e) {
            throw failure("read the index", e);
        }
    }

    private static PackEntry entry(ResultSet rs) throws SQLException {
        return new PackEntry(ObjectKey.ofDigest(rs.getBytes(1)), rs.getInt(2), rs.getLong(3), rs.getLong(4),
                rs.getLong(5), Compression.ofCode(rs.getInt(6)));
    }

    /** The entries of the keys that are packed, looked up in batches. */
    synchronized Map<ObjectKey, PackEntry> find(Collection<ObjectKey> keys) throws IOException {
        Map<ObjectKey, PackEntry> found = new HashMap<>();
        Iterator<ObjectKey> it = keys.iterator();
        while (it.hasNext()) {
            StringBuilder sql = new StringBuilder("SELECT hash, pack, offset, length, size, codec FROM object WHERE hash IN (");
            List<byte[]> batch = new java.util.ArrayList<>(IN_BATCH);
            while (it.hasNext() && batch.size() < IN_BATCH) {
                batch.add(it.next().digest());
                sql.append(batch.size() == 1 ? "?" : ",?");
            }
            sql.append(')');
            try (PreparedStatement ps = conn.prepareStatement(sql.toString())) {
                for (int i = 0; i < batch.size(); i++) {
                    ps.setBytes(i + 1, batch.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        PackEntry e = entry(rs);
                        found.put(e.key(), e);
                    }
                }
            } catch (SQLException e) {
                throw failure("look up keys", e);
            }
        }
        return found;
    }

    /**
     * The lowest pack id never used. Ids are never reused: a process with a stale cache may still point
     * into a deleted pack, and must find it gone rather than find other bytes under its name.
     */
    synchronized int nextPackId() throws IOException {
        try (Statement s = conn.createStatement();
             ResultSet rs = s.executeQuery("SELECT value FROM counter WHERE name = 'nextPack'")) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (SQLException e) {
            throw failure("read the next pack id", e);
        }
    }

    /** Committed sizes of the packs: a pack's bytes past its size are leftovers of an interrupted write. */
    synchronized Map<Integer, Long> packSizes() throws IOException {
        Map<Integer, Long> sizes = new HashMap<>();
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT id, size FROM pack")) {
            while (rs.next()) {
                sizes.put(rs.getInt(1), rs.getLong(2));
            }
        } catch (SQLException e) {
            throw failure("read the pack sizes", e);
        }
        return sizes;
    }

    /** Starts a write transaction; callers hold the pack lock, so it rarely waits. */
    Transaction begin() throws IOException {
        try {
            synchronized (writer) {
                writer.setAutoCommit(false);
            }
            return new Transaction();
        } catch (SQLException e) {
            throw failure("begin a transaction", e);
        }
    }

    /** One write transaction: inserts of a batch, pack sizes, deletes, relocations. */
    final class Transaction implements AutoCloseable {
        private long seq = -1;
        private boolean bumpEpoch;
        private boolean done;
        private int pending;

        /** The sequence number of this transaction's inserts, or -1 if it inserted nothing. */
        long seq() {
            return seq;
        }

        void insert(PackEntry e) throws IOException {
            synchronized (writer) {
                try {
                    if (seq < 0) {
                        seq = nextSeq();
                    }
                    insert.setBytes(1, e.key().digest());
                    insert.setInt(2, e.pack());
                    insert.setLong(3, e.offset());
                    insert.setLong(4, e.length());
                    insert.setLong(5, e.size());
                    insert.setInt(6, e.compression().code());
                    insert.setLong(7, seq);
                    insert.addBatch();
                    if (++pending == 4096) {
                        insert.executeBatch();
                        pending = 0;
                    }
                } catch (SQLException ex) {
                    throw failure("insert an entry", ex);
                }
            }
        }

        void setPackSize(int pack, long size) throws IOException {
            update("INSERT INTO pack VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET size = excluded.size", pack, size);
        }

        void reservePackIds(int nextPackId) throws IOException {
            update("UPDATE counter SET value = max(value, ?) WHERE name = 'nextPack'", nextPackId);
        }

        void dropPack(int pack) throws IOException {
            update("DELETE FROM pack WHERE id = ?", pack);
        }

        /** Deletes the entries of these keys; returns how many existed. */
        int delete(Collection<ObjectKey> keys) throws IOException {
            bumpEpoch = true;
            int n = 0;
            synchronized (writer) {
                try (PreparedStatement ps = writer.prepareStatement("DELETE FROM object WHERE hash = ?")) {
                    for (ObjectKey k : keys) {
                        ps.setBytes(1, k.digest());
                        n += ps.executeUpdate();
                    }
                } catch (SQLException e) {
                    throw failure("delete entries", e);
                }
            }
            return n;
        }

        /** Points existing entries at new places (after a repack). */
        void relocate(Collection<PackEntry> entries) throws IOException {
            bumpEpoch = true;
            synchronized (writer) {
                try (PreparedStatement ps = writer.prepareStatement(
                        "UPDATE object SET pack = ?, offset = ?, length = ?, codec = ? WHERE hash = ?")) {
                    for (PackEntry e : entries) {
                        ps.setInt(1, e.pack());
                        ps.setLong(2, e.offset());
                        ps.setLong(3, e.length());
                        ps.setInt(4, e.compression().code());
                        ps.setBytes(5, e.key().digest());
                        ps.addBatch();
                    }
                    ps.executeBatch();
                } catch (SQLException e) {
                    throw failure("relocate entries", e);
                }
            }
        }

        private void update(String sql, long... args) throws IOException {
            synchronized (writer) {
                try (PreparedStatement ps = writer.prepareStatement(sql)) {
                    for (int i = 0; i < args.length; i++) {
                        ps.setLong(i + 1, args[i]);
                    }
                    ps.executeUpdate();
                } catch (SQLException e) {
                    throw failure("update the index", e);
                }
            }
        }

        private long nextSeq() throws SQLException {
            try (Statement s = writer.createStatement()) {
                s.executeUpdate("UPDATE counter SET value = value + 1 WHERE name = 'seq'");
                try (ResultSet rs = s.executeQuery("SELECT value FROM counter WHERE name = 'seq'")) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        }

        void commit() throws IOException {
            synchronized (writer) {
                try {
                    if (pending > 0) {
                        insert.executeBatch();
                        pending = 0;
                    }
                    if (bumpEpoch) {
                        try (Statement s = writer.createStatement()) {
                            s.executeUpdate("UPDATE counter SET value = value + 1 WHERE name = 'epoch'");
                        }
                    }
                    writer.commit();
                    done = true;
                } catch (SQLException e) {
                    throw failure("commit", e);
                } finally {
                    restoreAutoCommit();
                }
            }
        }

        @Override
        public void close() throws IOException {
            if (done) {
                return;
            }
            synchronized (writer) {
                try {
                    insert.clearBatch();
                    writer.rollback();
                } catch (SQLException e) {
                    throw failure("roll back", e);
                } finally {
                    done = true;
                    restoreAutoCommit();
                }
            }
        }

        private void restoreAutoCommit() {
            try {
                writer.setAutoCommit(true);
            } catch (SQLException ignored) {
                // the connection is broken; the next statement reports it
            }
        }
    }

    void vacuum() throws IOException {
        synchronized (writer) {
            vacuumLocked();
        }
    }

    private void vacuumLocked() throws IOException {
        try (Statement s = writer.createStatement()) {
            s.executeUpdate("VACUUM");
            s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        } catch (SQLException e) {
            throw failure("vacuum", e);
        }
    }

    /** SQLite's own structural check of the index file. */
    synchronized String integrityCheck() throws IOException {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("PRAGMA quick_check")) {
            StringBuilder out = new StringBuilder();
            while (rs.next()) {
                out.append(rs.getString(1)).append('\n');
            }
            return out.toString().strip();
        } catch (SQLException e) {
            throw failure("check the index file", e);
        }
    }

    private static IOException failure(String what, SQLException e) {
        return new IOException("pack index: cannot " + what + ": " + e.getMessage(), e);
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            insert.close();
            state.close();
            conn.close();
            writer.close();
        } catch (SQLException e) {
            throw failure("close", e);
        }
    }
}
