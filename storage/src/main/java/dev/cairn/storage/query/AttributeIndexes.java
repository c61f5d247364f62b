package dev.cairn.storage.query;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.errors.UnavailableException;
import dev.cairn.storage.query.AttributeIndex.State;
import dev.cairn.storage.query.AttributeIndex.Type;

/**
 * Indexes an operator declares on hot attributes of the nodes ({@code energy} as a number), built on
 * the very expression {@link Expressions} compiles a filter on that attribute to, so that the planner
 * answers {@code attributes.energy < -0.9} from the index instead of reading every node's attributes.
 *
 * <p>The database's catalog is the only record: an index is named {@code node_attrindex_<type>_<hash of
 * the key>} and its comment holds the key, so what is listed is what exists, whatever happened to a
 * build, and a backup or a restore carries both. Builds run {@code CREATE INDEX CONCURRENTLY}, which
 * writers of nodes do not wait on; it cannot run in a transaction, so each statement commits by itself.
 */
public final class AttributeIndexes {

    static final String PREFIX = "node_attrindex_";

    /** A LIKE pattern of every declared index's name. */
    private static final String EVERY = PREFIX.replace("_", "\\_") + "%";

    private static final String LIST = """
            SELECT c.relname, obj_description(c.oid, 'pg_class'), i.indisvalid, pg_relation_size(c.oid),
                   EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = c.oid)
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid = 'node'::regclass AND c.relname LIKE ?
            ORDER BY c.relname""";

    private final Database database;

    /** The indexes of the node table of {@code database}. */
    public AttributeIndexes(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /** Every declared index, ready or not, by name. */
    public List<AttributeIndex> list() {
        try (Connection c = database.connection()) {
            return read(c, EVERY);
        } catch (SQLException e) {
            throw new UnavailableException("cannot list the attribute indexes: " + e.getMessage(), e);
        }
    }

    /**
     * Builds the index of {@code key}'s values of {@code type}, unless it is ready or being built; one
     * left invalid by a failed build is dropped and built again. Returns it as it then is.
     *
     * @throws UnavailableException if the build failed (the index is then listed as invalid)
     */
    public AttributeIndex add(String key, Type type) {
        String name = name(key, type);
        String expression = expression(key, type);
        try (Connection c = database.connection()) {
            // CREATE and DROP INDEX CONCURRENTLY refuse to run inside a transaction block
            c.setAutoCommit(true);
            Optional<AttributeIndex> existing = find(c, name);
            if (existing.isEmpty() || existing.get().state() == State.INVALID) {
                execute(c, "DROP INDEX CONCURRENTLY IF EXISTS " + name);
                build(c, name, expression, key, type);
            }
            // the key, in the index's comment: written again for a ready one, where a build was cut off before it
            execute(c, "COMMENT ON INDEX " + name + " IS " + literal(key));
            return find(c, name)
                    .orElseThrow(() -> new UnavailableException("the index on attribute '" + key + "' (" + type.label()
                            + ") was dropped while it was built"));
        } catch (SQLException e) {
            throw new UnavailableException(
                    "cannot index attribute '" + key + "' (" + type.label() + "): " + e.getMessage(), e);
        }
    }

    /**
     * Drops the index of {@code key}'s values of {@code type}, without blocking writers.
     *
     * @throws NotFoundException if there is none
     */
    public void drop(String key, Type type) {
        String name = name(key, type);
        try (Connection c = database.connection()) {
            c.setAutoCommit(true);
            if (find(c, name).isEmpty()) {
                throw new NotFoundException("no index on attribute '" + key + "' of type " + type.label()
                        + "; the attribute indexes are "
                        + read(c, EVERY).stream()
                                .map(i -> i.key() + " (" + i.type().label() + ")")
                                .toList());
            }
            execute(c, "DROP INDEX CONCURRENTLY IF EXISTS " + name);
        } catch (SQLException e) {
            throw new UnavailableException(
                    "cannot drop the index on attribute '" + key + "' (" + type.label() + "): " + e.getMessage(), e);
        }
    }

    private static void build(Connection c, String name, String expression, String key, Type type) throws SQLException {
        try {
            execute(c, "CREATE INDEX CONCURRENTLY IF NOT EXISTS " + name + " ON node ((" + expression + "))");
        } catch (SQLException e) {
            throw new UnavailableException(
                    "building the index on attribute '" + key + "' (" + type.label()
                            + ") failed, and it is left invalid until it is added again: " + e.getMessage(),
                    e);
        }
        // the planner estimates a filter on the expression from the index's own statistics
        execute(c, "ANALYZE node");
    }

    private static Optional<AttributeIndex> find(Connection c, String name) throws SQLException {
        return read(c, name.replace("_", "\\_")).stream().findFirst();
    }

    private static List<AttributeIndex> read(Connection c, String pattern) throws SQLException {
        List<AttributeIndex> indexes = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(LIST)) {
            s.setString(1, pattern);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    String name = r.getString(1);
                    State state = r.getBoolean(3) ? State.READY : r.getBoolean(5) ? State.BUILDING : State.INVALID;
                    indexes.add(new AttributeIndex(r.getString(2), typeOf(name), name, state, r.getLong(4)));
                }
            }
        }
        return indexes;
    }

    private static Type typeOf(String name) {
        String rest = name.substring(PREFIX.length());
        return Type.of(rest.substring(0, rest.indexOf('_')));
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** The index's name: the type, and a hash of the key, which may hold any character and be long. */
    static String name(String key, Type type) {
        AttributeIndex.path(key);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return PREFIX + type.label() + "_" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The indexed expression: what {@link Expressions} writes for a filter on the key, its values inlined. */
    static String expression(String key, Type type) {
        FieldRef field = new FieldRef(Table.NODE.column("attributes").orElseThrow(), AttributeIndex.path(key));
        SqlText sql = switch (type) {
            case NUMBER -> Expressions.jsonNumber("node", field);
            case STRING -> Expressions.jsonText("node", field);
        };
        CompiledQuery query = sql.toQuery();
        StringBuilder out = new StringBuilder();
        int next = 0;
        for (char ch : query.sql().toCharArray()) {
            out.append(ch == '?' ? inline(query.parameters().get(next++)) : String.valueOf(ch));
        }
        return out.toString();
    }

    private static String inline(Object parameter) {
        if (parameter instanceof CompiledQuery.ArrayParameter array) {
            StringBuilder text = new StringBuilder("{");
            for (Object element : array.elements()) {
                String e = element.toString().replace("\\", "\\\\").replace("\"", "\\\"");
                text.append(text.length() > 1 ? "," : "").append('"').append(e).append('"');
            }
            return literal(text.append('}').toString()) + "::" + array.elementType() + "[]";
        }
        return literal((String) parameter);
    }

    /** A SQL string literal, escaped the same whatever standard_conforming_strings is. */
    private static String literal(String value) {
        return "E'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
