package dev.cairn.storage.graph;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.UUID;

import dev.cairn.storage.db.JsonCodec;

/** Reading {@code node} rows: the column list and the mapping to {@link NodeRecord}. */
public final class NodeRows {

    /** The columns {@link #read} expects, in order, for a table aliased {@code n}. */
    public static final String COLUMNS = columnsOf("n");
    /** How many columns {@link #read} reads. */
    public static final int COUNT = 14;

    /** The columns {@link #read} expects, in order, for a table aliased {@code alias}. */
    public static String columnsOf(String alias) {
        String a = alias + ".";
        return a + "id, " + a + "uuid, " + a + "node_type, " + a + "process_type, " + a + "label, " + a
                + "description, "
                + a + "ctime, " + a + "mtime, " + a + "user_id, " + a + "computer_id, " + a + "attributes::text, "
                + a + "extras::text, " + a + "repository_metadata::text, " + a + "hash";
    }

    private NodeRows() {}

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
        return new NodeRecord(
                id,
                uuid,
                nodeType,
                processType,
                label,
                description,
                ctime,
                mtime,
                userId,
                computerId,
                attributes,
                extras,
                repository,
                hash);
    }
}
