package dev.cairn.storage.objects;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.List;

/**
 * One write transaction on the {@link PackIndex}: a new segment, or a rewrite of all of them; pack sizes,
 * deletion marks and counters. In a folder it writes through the index's writer connection and commits
 * there; of a container in a bucket it records what it does as an {@link IndexLog.Entry}, which is
 * published on commit and then applied to the host's copy as any other entry is.
 */
final class IndexTransaction implements AutoCloseable {
    private boolean done;
    /** What this transaction does, recorded for the bucket's log; null in a folder or when replaying. */
    private final IndexLog.Entry entry;

    /** The connection it writes through. */
    private final Connection c;

    /** The index whose copy a published entry is applied to; used only when {@code entry} is not null. */
    private final PackIndex index;

    IndexTransaction(Connection c, IndexLog.Entry entry, PackIndex index) throws IOException {
        this.c = c;
        this.entry = entry;
        this.index = index;
        if (entry != null) {
            return; // recorded only, and applied when published: no local write lock held meanwhile
        }
        synchronized (c) {
            try {
                c.setAutoCommit(false);
            } catch (SQLException e) {
                throw PackIndex.failure("begin a transaction", e);
            }
        }
    }

    /** Stores entries, sorted by key, as a new segment. */
    void addSegment(List<PackEntry> sorted) throws IOException {
        if (sorted.isEmpty()) {
            return;
        }
        for (int i = 0; i < sorted.size(); i += Segment.MAX_ENTRIES) {
            insertSegment(Segment.encode(sorted.subList(i, Math.min(sorted.size(), i + Segment.MAX_ENTRIES))));
        }
    }

    /** Replaces every segment by {@code segments} (encoded records); moves the epoch. */
    void replaceAll(List<byte[]> segments) throws IOException {
        if (entry != null) {
            entry.replaceAll(segments);
            return;
        }
        synchronized (c) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("DELETE FROM segment");
                s.executeUpdate("UPDATE counter SET value = value + 1 WHERE name = 'epoch'");
            } catch (SQLException e) {
                throw PackIndex.failure("rewrite the index", e);
            }
        }
        for (byte[] records : segments) {
            store(records);
        }
    }

    private void insertSegment(byte[] records) throws IOException {
        if (entry != null) {
            entry.addSegment(records);
            return;
        }
        store(records);
    }

    /** Stores one segment, as a commit or a replay does. */
    void store(byte[] records) throws IOException {
        synchronized (c) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO segment(count, records) VALUES (?, ?)")) {
                ps.setInt(1, records.length / Segment.RECORD);
                ps.setBytes(2, records);
                ps.executeUpdate();
            } catch (SQLException e) {
                throw PackIndex.failure("write an index segment", e);
            }
        }
    }

    void setPackSize(int pack, long size) throws IOException {
        if (entry != null) {
            entry.setPackSize(pack, size);
            return;
        }
        update("INSERT INTO pack VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET size = excluded.size", pack, size);
    }

    void dropPack(int pack) throws IOException {
        if (entry != null) {
            entry.dropPack(pack);
            return;
        }
        update("DELETE FROM pack WHERE id = ?", pack);
    }

    /** Marks keys pending deletion, unstamped (see {@link #stampMarks}). */
    void mark(Collection<ObjectKey> keys) throws IOException {
        changeMarks(keys, true);
    }

    /** Drops the marks of keys (deleted, referenced again, or stored again); unmarked keys are fine. */
    void unmark(Collection<ObjectKey> keys) throws IOException {
        changeMarks(keys, false);
    }

    /** Marks ({@code marked}) or unmarks keys: recorded for the bucket's log, or written here. */
    private void changeMarks(Collection<ObjectKey> keys, boolean marked) throws IOException {
        if (keys.isEmpty()) {
            return;
        }
        if (entry != null) {
            if (marked) {
                entry.mark(keys);
            } else {
                entry.unmark(keys);
            }
            return;
        }
        String sql = marked
                ? "INSERT OR IGNORE INTO deletion_mark(key, marked_at) VALUES (?, NULL)"
                : "DELETE FROM deletion_mark WHERE key = ?";
        synchronized (c) {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (ObjectKey k : keys) {
                    ps.setBytes(1, k.digest());
                    ps.addBatch();
                }
                ps.executeBatch();
            } catch (SQLException e) {
                throw PackIndex.failure("change the deletion marks", e);
            }
        }
        update("UPDATE counter SET value = value + 1 WHERE name = 'marks'");
    }

    /** Gives the marks not yet stamped the time {@code millis}; returns how many. */
    int stampMarks(long millis) throws IOException {
        if (entry != null) {
            entry.stampMarks(millis);
            return 0;
        }
        synchronized (c) {
            try (PreparedStatement ps =
                    c.prepareStatement("UPDATE deletion_mark SET marked_at = ? WHERE marked_at IS NULL")) {
                ps.setLong(1, millis);
                return ps.executeUpdate();
            } catch (SQLException e) {
                throw PackIndex.failure("stamp the deletion marks", e);
            }
        }
    }

    void reservePackIds(int nextPackId) throws IOException {
        if (entry != null) {
            entry.reservePackIds(nextPackId);
            return;
        }
        update("UPDATE counter SET value = max(value, ?) WHERE name = 'nextPack'", nextPackId);
    }

    void update(String sql, long... args) throws IOException {
        synchronized (c) {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < args.length; i++) {
                    ps.setLong(i + 1, args[i]);
                }
                ps.executeUpdate();
            } catch (SQLException e) {
                throw PackIndex.failure("update the index", e);
            }
        }
    }

    /**
     * Commits. Of a container in a bucket, the recorded transaction is published as the log's next
     * entry, which is the commit every host sees (and fails when another process published that entry
     * first), then applied to this copy as any other entry is.
     */
    void commit() throws IOException {
        if (entry != null) {
            done = true;
            index.publish(entry);
            return;
        }
        commitLocally();
    }

    /** Commits the writer connection's transaction: a folder's commit, or the application of a log entry. */
    void commitLocally() throws IOException {
        synchronized (c) {
            try {
                c.commit();
                done = true;
            } catch (SQLException e) {
                throw PackIndex.failure("commit", e);
            } finally {
                restoreAutoCommit();
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (done || entry != null) {
            return;
        }
        synchronized (c) {
            try {
                c.rollback();
            } catch (SQLException e) {
                throw PackIndex.failure("roll back", e);
            } finally {
                done = true;
                restoreAutoCommit();
            }
        }
    }

    private void restoreAutoCommit() {
        try {
            c.setAutoCommit(true);
        } catch (SQLException ignored) {
            // the connection is broken; the next statement reports it
        }
    }
}
