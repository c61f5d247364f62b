package dev.cairn.storage.archive;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What the node intake asks of the database besides its writes: which of a batch's uuids are here
 * already, and ids for the new nodes. Asked through a connection of its own, in autocommit, so that the
 * import's writing backend spends nothing on them; it sees only committed nodes, which is what a look-up
 * asks.
 */
final class NodeLookups {

    private final Connection c;

    NodeLookups(Connection c) {
        this.c = c;
    }

    /** The batch's nodes that are here already (committed), with their ids. */
    Map<UUID, Long> here(List<IntakeRow> batch) throws SQLException {
        Map<UUID, Long> here = new HashMap<>();
        if (batch.isEmpty()) {
            return here;
        }
        try (PreparedStatement s = c.prepareStatement("SELECT uuid, id FROM node WHERE uuid = ANY (?)")) {
            s.setArray(
                    1, c.createArrayOf("uuid", batch.stream().map(r -> r.uuid).toArray()));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    here.put(r.getObject(1, UUID.class), r.getLong(2));
                }
            }
        }
        return here;
    }

    /** {@code n} ids drawn from the node sequence. */
    long[] reserveIds(int n) throws SQLException {
        long[] ids = new long[n];
        if (n == 0) {
            return ids;
        }
        try (PreparedStatement s =
                c.prepareStatement("SELECT nextval(pg_get_serial_sequence('node', 'id')) FROM generate_series(1, ?)")) {
            s.setInt(1, n);
            try (ResultSet r = s.executeQuery()) {
                for (int i = 0; r.next(); i++) {
                    ids[i] = r.getLong(1);
                }
            }
        }
        return ids;
    }
}
