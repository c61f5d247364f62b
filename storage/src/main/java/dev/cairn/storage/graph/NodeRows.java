package dev.cairn.storage.graph;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.UUID;

import dev.cairn.storage.db.JsonCodec;

/** Reading {@code node} rows: the column list and the mapping to {@link NodeRecord}. */
public final class NodeRows {

    /** The columns {@link #read} expects, in order, for a table aliased {@code n}. */
    public static final String COLUMNS = "n.id, n.uuid, n.node_type, n.process_type, n.label, n.description, "
        + "n.ctime, n.mtime, n.user_id, n.computer_id, n.attributes::text, n.extras::text, "
        + "n.repository_metadata::text, n.hash";

    private NodeRows() {
    }

    /** The row at the cursor, its columns starting at {@code first} in the order of {@link #COLUMNS}. */
    public static NodeRecord read(ResultSet rs, int first) throws SQLException {
        int c = first;
        long id = rs.getLong(c++);
        UUID uuid = rs.getObject(c++, UUID.class);
        String nodeType = rs.getString(c++);
        String processType = rs.getString(c++);
        String label = rs.getString(c++);
        String description = rs.getString(c++);
        OffsetDateTime ctime = rs.getObject(c++, OffsetDateTime.class);
        OffsetDateTime mtime = rs.getObject(c++, OffsetDateTime.class);
        long userId = rs.getLong(c++);
        Long computerId = rs.getObject(c++, Long.class);
        var attributes = JsonCodec.readObject(rs.getString(c++));
        var extras = JsonCodec.readObject(rs.getString(c++));
        var repository = JsonCodec.readObject(rs.getString(c++));
        String hash = rs.getString(c);
        return new NodeRecord(id, uuid, nodeType, processType, label, description, ctime, mtime, userId,
            computerId, attributes, extras, repository, hash);
    }
}
