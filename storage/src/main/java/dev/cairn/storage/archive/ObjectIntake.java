package dev.cairn.storage.archive;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.PackBatch;

/**
 * The objects of an import, straight into packs through one {@link PackBatch}: visible only once the
 * import commits, and taken back if the database then refuses. Objects already here are skipped unread
 * (the reader still checks their bytes against their keys). The keys added are kept as packed longs, so
 * a million objects cost 32 MB.
 */
final class ObjectIntake implements AutoCloseable {

    private static final int CHECK_BATCH = 10_000;

    private final Container container;
    private PackBatch batch;
    private long[] added = new long[64];
    private int count;
    private long present;

    ObjectIntake(Container container) {
        this.container = container;
    }

    void accept(ObjectKey key, InputStream content) throws IOException {
        if (container.contains(key)) {
            present++;
            return;
        }
        if (batch == null) {
            batch = container.openPackBatch(container.config().packCompression());
        }
        ObjectKey stored = batch.add(content);
        if (!stored.equals(key)) {
            throw new InvalidArchiveException("object " + key + " in the archive has bytes whose SHA-256 is " + stored);
        }
        if (count * 4 == added.length) {
            added = Arrays.copyOf(added, added.length * 2);
        }
        byte[] d = key.digest();
        for (int w = 0; w < 4; w++) {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (d[w * 8 + i] & 0xff);
            }
            added[count * 4 + w] = v;
        }
        count++;
    }

    /** Indexes the new objects; they are visible from now on. */
    long commit() throws IOException {
        return batch == null ? 0 : batch.commit();
    }

    /** Objects of the archive that were here already. */
    long present() {
        return present;
    }

    /**
     * Fails naming a node and the key when a file of a new node has its bytes neither here nor in the
     * archive. Call after {@link #commit}, in the import's transaction.
     */
    void requireFilesOfNewNodes(Connection c) throws SQLException, IOException {
        try (Statement s = c.createStatement()) {
            s.execute(
                    "CREATE TEMP TABLE import_keys ON COMMIT DROP AS SELECT DISTINCT"
                            + " jsonb_path_query(n.repository_metadata, " + ExportQueries.KEYS_PATH + ") #>> '{}' AS k"
                            + " FROM import_nodes i JOIN node n ON n.id = i.id WHERE i.is_new AND n.repository_metadata <> '{}'");
        }
        String last = "";
        try (PreparedStatement page = c.prepareStatement("SELECT k FROM import_keys WHERE k > ? ORDER BY k LIMIT ?")) {
            while (true) {
                page.setString(1, last);
                page.setInt(2, CHECK_BATCH);
                List<ObjectKey> keys = new ArrayList<>(CHECK_BATCH);
                try (ResultSet r = page.executeQuery()) {
                    while (r.next()) {
                        keys.add(ObjectKey.of(r.getString(1)));
                    }
                }
                if (keys.isEmpty()) {
                    return;
                }
                Set<ObjectKey> here = container.existing(keys);
                for (ObjectKey k : keys) {
                    if (!here.contains(k)) {
                        throw new InvalidArchiveException("node " + nodeNaming(c, k) + " has a file whose bytes (" + k
                                + ") are neither in the archive nor here");
                    }
                }
                last = keys.get(keys.size() - 1).toString();
            }
        }
    }

    private static String nodeNaming(Connection c, ObjectKey key) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT n.uuid FROM import_nodes i JOIN node n ON n.id = i.id"
                + " WHERE i.is_new AND jsonb_path_exists(n.repository_metadata, " + ExportQueries.KEYS_PATH
                + ") AND n.repository_metadata::text LIKE ? LIMIT 1")) {
            s.setString(1, "%" + key + "%");
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getString(1) : "?";
            }
        }
    }

    /** Takes back the objects this import added, after the database refused to commit. */
    void deleteAdded() throws IOException {
        // the batch holds the pack lock until it is closed, and the delete takes that lock: close it first
        if (batch != null) {
            PackBatch committed = batch;
            batch = null;
            committed.close();
        }
        List<ObjectKey> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] d = new byte[32];
            for (int w = 0; w < 4; w++) {
                long v = added[i * 4 + w];
                for (int b = 0; b < 8; b++) {
                    d[w * 8 + b] = (byte) (v >>> (56 - 8 * b));
                }
            }
            keys.add(ObjectKey.ofDigest(d));
        }
        container.delete(keys);
    }

    /** Objects added (committed or not). */
    long added() {
        return count;
    }

    @Override
    public void close() throws IOException {
        if (batch != null) {
            batch.close();
        }
    }
}
