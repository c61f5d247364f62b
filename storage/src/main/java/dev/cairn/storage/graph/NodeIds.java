package dev.cairn.storage.graph;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Objects;
import java.util.PrimitiveIterator;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import dev.cairn.storage.db.internal.TempTables;
import dev.cairn.storage.errors.NotFoundException;

/**
 * A set of node ids handed to a set-based statement, never as one parameter per id: a
 * PostgreSQL statement takes at most 65,535 parameters, which is where bulk operations that
 * expand {@code IN (?, ?, ...)} break.
 * <ul>
 *   <li>{@link #of(long...)}: one {@code bigint[]} parameter, for ids already in memory;</li>
 *   <li>{@link #streamed(LongStream)}: {@code COPY} into a temporary table, for any number of
 *       ids in bounded memory (the stream is consumed once);</li>
 *   <li>{@link #inGroup(long)}: the members of a group, read inside the database.</li>
 * </ul>
 * Duplicates are allowed; consumers take distinct ids.
 */
public abstract sealed class NodeIds permits NodeIds.Listed, NodeIds.Streamed, NodeIds.GroupMembers, NodeIds.Entities {

    private NodeIds() {}

    /** The given ids, bound as one array parameter. */
    public static NodeIds of(long... ids) {
        return new Listed(ids.clone());
    }

    /** The ids of a stream, copied into the database as they come. The stream is consumed once. */
    public static NodeIds streamed(LongStream ids) {
        return new Streamed(Objects.requireNonNull(ids, "ids"));
    }

    /** The nodes in group {@code groupId}; a group that does not exist is an error. */
    public static NodeIds inGroup(long groupId) {
        return new GroupMembers(groupId);
    }

    /**
     * A query of one column {@code id} giving these ids, with at most one parameter, ready to
     * be placed in an {@code INSERT ... SELECT}. Streamed ids are copied into a temporary
     * table here, so {@code connection} must be in a transaction.
     */
    public abstract Selection select(Connection connection) throws SQLException;

    /** SQL text of one query and its single parameter ({@code null} when it has none). */
    public record Selection(String sql, Object parameter) {
        /** Binds the parameter at {@code index}; returns the next free index. */
        public int bind(PreparedStatement statement, int index) throws SQLException {
            if (parameter == null) {
                return index;
            }
            statement.setObject(index, parameter);
            return index + 1;
        }

        /**
         * Checks that every id is a stored node.
         *
         * @param what the ids' role in the message, e.g. "seed nodes"
         * @throws NotFoundException naming up to ten missing ids and how many there are
         */
        public void requireNodes(Connection connection, String what) throws SQLException {
            String check = "SELECT count(*) FILTER (WHERE n.id IS NULL), count(*),"
                    + " (array_agg(d.id ORDER BY d.id) FILTER (WHERE n.id IS NULL))[1:10]"
                    + " FROM (SELECT DISTINCT id FROM (" + sql + ") s) d LEFT JOIN node n ON n.id = d.id";
            try (PreparedStatement statement = connection.prepareStatement(check)) {
                bind(statement, 1);
                try (ResultSet r = statement.executeQuery()) {
                    r.next();
                    long missing = r.getLong(1);
                    if (missing == 0) {
                        return;
                    }
                    Object[] some = (Object[]) r.getArray(3).getArray();
                    throw new NotFoundException(missing + " of the " + r.getLong(2) + " " + what + " do not exist: "
                            + Arrays.stream(some).map(String::valueOf).collect(Collectors.joining(", "))
                            + (missing > some.length ? ", ..." : ""));
                }
            }
        }
    }

    /**
     * The nodes given, the members of the groups given, and the nodes run on the computers given: the
     * starting set of an export.
     */
    public static NodeIds entities(long[] nodes, long[] groups, long[] computers) {
        return new Entities(nodes, groups, computers);
    }

    static final class Entities extends NodeIds {
        private final long[] nodes;
        private final long[] groups;
        private final long[] computers;

        Entities(long[] nodes, long[] groups, long[] computers) {
            this.nodes = nodes.clone();
            this.groups = groups.clone();
            this.computers = computers.clone();
        }

        @Override
        public Selection select(Connection connection) {
            // Numbers only, written by Java: the three arrays go into the text as literals, as a Selection
            // binds one parameter.
            return new Selection(
                    "SELECT unnest('" + literal(nodes) + "'::bigint[]) AS id"
                            + " UNION SELECT node_id FROM group_member WHERE group_id = ANY ('" + literal(groups)
                            + "'::bigint[]) UNION SELECT id FROM node WHERE computer_id = ANY ('" + literal(computers)
                            + "'::bigint[])",
                    null);
        }

        private static String literal(long[] ids) {
            StringBuilder b = new StringBuilder("{");
            for (int i = 0; i < ids.length; i++) {
                b.append(i == 0 ? "" : ",").append(ids[i]);
            }
            return b.append('}').toString();
        }

        @Override
        public String toString() {
            return nodes.length + " nodes, the members of " + groups.length + " groups and the nodes of "
                    + computers.length + " computers";
        }
    }

    static final class Listed extends NodeIds {
        private final long[] ids;

        Listed(long[] ids) {
            this.ids = ids;
        }

        @Override
        public Selection select(Connection connection) {
            // The driver sends a long[] as one int8[] value in binary.
            return new Selection("SELECT unnest(?::bigint[]) AS id", ids);
        }

        @Override
        public String toString() {
            return ids.length + " listed node ids";
        }
    }

    static final class Streamed extends NodeIds {
        private static final int BUFFER = 64 * 1024;
        private final LongStream ids;

        Streamed(LongStream ids) {
            this.ids = ids;
        }

        @Override
        public Selection select(Connection connection) throws SQLException {
            String table = TempTables.name("ids");
            try (Statement s = connection.createStatement()) {
                s.execute("CREATE TEMP TABLE " + table + " (id bigint NOT NULL) ON COMMIT DROP");
            }
            copy(connection, table);
            return new Selection("SELECT id FROM " + table, null);
        }

        private void copy(Connection connection, String table) throws SQLException {
            CopyIn copy =
                    connection.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table + " (id) FROM STDIN");
            try {
                byte[] buffer = new byte[BUFFER];
                int used = 0;
                PrimitiveIterator.OfLong it = ids.iterator();
                while (it.hasNext()) {
                    byte[] line = (it.nextLong() + "\n").getBytes(StandardCharsets.US_ASCII);
                    if (used + line.length > buffer.length) {
                        copy.writeToCopy(buffer, 0, used);
                        used = 0;
                    }
                    System.arraycopy(line, 0, buffer, used, line.length);
                    used += line.length;
                }
                if (used > 0) {
                    copy.writeToCopy(buffer, 0, used);
                }
                copy.endCopy();
            } finally {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
            }
        }

        @Override
        public String toString() {
            return "streamed node ids";
        }
    }

    static final class GroupMembers extends NodeIds {
        private final long groupId;

        GroupMembers(long groupId) {
            this.groupId = groupId;
        }

        @Override
        public Selection select(Connection connection) throws SQLException {
            try (PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM node_group WHERE id = ?")) {
                exists.setLong(1, groupId);
                if (!exists.executeQuery().next()) {
                    throw new NotFoundException("group " + groupId + " does not exist");
                }
            }
            return new Selection("SELECT node_id AS id FROM group_member WHERE group_id = ?", groupId);
        }

        @Override
        public String toString() {
            return "the nodes of group " + groupId;
        }
    }
}
