package dev.cairn.storage.graph;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.postgresql.PGConnection;

import dev.cairn.storage.db.JsonText;
import dev.cairn.storage.db.internal.CopyPipe;
import dev.cairn.storage.db.internal.CopyRows;
import dev.cairn.storage.graph.internal.NodeTallies;

/**
 * Writes new nodes and their incoming links. One node goes in one statement (node and
 * links together, so one round trip and all or nothing); a batch goes in one transaction
 * by COPY, with ids reserved from the sequence first so links can name their nodes.
 */
final class NodeInserter {

    /** One node, counted in the statistics by the same statement ({@link NodeTallies}). */
    private static final String INSERT_NODE =
            """
        WITH n AS (
            INSERT INTO node (uuid, node_type, process_type, label, description, ctime, mtime, user_id,
                              computer_id, attributes, extras, repository_metadata, hash)
            VALUES (?, ?, ?, ?, ?, now(), now(), ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?)
            RETURNING id, ctime,""" + " " + NodeTallies.RETURNING_KEY + "),\n t AS (" + NodeTallies.countReturned("n") + ")";

    private static final String INSERT_ONE = INSERT_NODE + """
        ,
        l AS (
            INSERT INTO link (input_id, output_id, type, label)
            SELECT x.input_id, n.id, x.type, x.label
              FROM n, unnest(?::bigint[], ?::text[], ?::text[]) AS x(input_id, type, label))
        SELECT id, ctime FROM n""";

    /** A node without incoming links: no link statement, so no link trigger either. */
    private static final String INSERT_ALONE = INSERT_NODE + "\nSELECT id, ctime FROM n";

    private static final String RESERVE_IDS =
            "SELECT now(), nextval(pg_get_serial_sequence('node', 'id')) FROM generate_series(1, ?)";
    private static final String COPY_NODES = "COPY node (id, uuid, node_type, process_type, label, description, "
            + "ctime, mtime, user_id, computer_id, attributes, extras, repository_metadata, hash) FROM STDIN";
    private static final String COPY_LINKS = "COPY link (input_id, output_id, type, label) FROM STDIN";

    /**
     * Up to this many nodes go in one statement instead of COPY: a COPY costs several
     * messages each way, which for the handful of nodes of a process step cost more
     * than the rows themselves; one statement is one round trip.
     */
    static final int SMALL_BATCH = 64;

    /**
     * A small batch in one round trip: ids drawn in order, nodes, then links naming new nodes by position.
     * The rows come from the arrays, and nothing else counts them (a generate_series of their number
     * did): so the plan made without the arrays' values costs what a plan made with them does, and the
     * server soon keeps one instead of planning the statement at every execution.
     */
    private static final String INSERT_SMALL =
            """
        WITH r AS MATERIALIZED (
            SELECT r.*, nextval(pg_get_serial_sequence('node', 'id')) AS id
              FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[],
                          ?::text[], ?::text[]) WITH ORDINALITY
                   AS r(uuid, node_type, process_type, label, description, computer_id, attributes, extras, files,
                        hash, ord)
             ORDER BY ord),
        n AS (
            INSERT INTO node (id, uuid, node_type, process_type, label, description, ctime, mtime, user_id,
                              computer_id, attributes, extras, repository_metadata, hash)
            SELECT r.id, r.uuid, r.node_type, r.process_type, r.label, r.description, now(), now(), ?,
                   r.computer_id, r.attributes::jsonb, r.extras::jsonb, r.files::jsonb, r.hash
              FROM r
            RETURNING""" + " " + NodeTallies.RETURNING_KEY + "),\n t AS (" + NodeTallies.countReturned("n") + """
        ),
        l AS (
            INSERT INTO link (input_id, output_id, type, label)
            SELECT CASE WHEN x.source > 0 THEN x.source ELSE (SELECT id FROM r WHERE ord = -x.source) END,
                   (SELECT id FROM r WHERE ord = x.target), x.type, x.label
              FROM unnest(?::bigint[], ?::int[], ?::text[], ?::text[]) AS x(source, target, type, label))
        SELECT id, now() FROM r ORDER BY ord""";

    private NodeInserter() {}

    /** Inserts one node whose link sources are all stored; returns its id and creation time. */
    static Node.StoredState insertOne(Connection c, Node node, long userId, String hash) throws SQLException {
        List<PendingLink> links = node.pendingIncoming();
        try (PreparedStatement s = c.prepareStatement(links.isEmpty() ? INSERT_ALONE : INSERT_ONE)) {
            int p = 1;
            s.setObject(p++, node.uuid());
            s.setString(p++, node.nodeType());
            s.setString(p++, node.processType());
            s.setString(p++, node.label());
            s.setString(p++, node.description());
            s.setLong(p++, userId);
            s.setObject(p++, node.computerId());
            s.setString(p++, JsonText.write(node.attributesForStore()));
            s.setString(p++, JsonText.write(node.extras()));
            s.setString(p++, JsonText.write(node.files().toMetadata()));
            s.setString(p++, hash);
            if (!links.isEmpty()) {
                s.setArray(
                        p++,
                        c.createArrayOf(
                                "bigint",
                                links.stream().map(l -> l.source().id()).toArray()));
                s.setArray(
                        p++,
                        c.createArrayOf(
                                "text",
                                links.stream().map(l -> l.type().dbValue()).toArray()));
                s.setArray(
                        p,
                        c.createArrayOf(
                                "text", links.stream().map(PendingLink::label).toArray()));
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                OffsetDateTime ctime = rs.getObject(2, OffsetDateTime.class);
                return new Node.StoredState(rs.getLong(1), ctime, ctime, userId, hash);
            }
        }
    }

    /**
     * Inserts a batch, ordered so sources come first, inside the caller's transaction.
     * Returns each node's state, to be applied once the transaction commits.
     */
    static Map<Node, Node.StoredState> insertBatch(Connection c, List<Node> ordered, long userId, NodeHashing hashing)
            throws SQLException {
        if (ordered.size() <= SMALL_BATCH) {
            return insertSmall(c, ordered, userId, hashing);
        }
        // Hashes are computed row by row while COPY streams, so the server parses one chunk
        // while the next is hashed and written.
        Map<Node, String> hashes = new IdentityHashMap<>(ordered.size() * 2);
        Map<Node, Node.StoredState> states = new IdentityHashMap<>(ordered.size() * 2);
        OffsetDateTime now;
        long[] ids = new long[ordered.size()];
        try (PreparedStatement s = c.prepareStatement(RESERVE_IDS)) {
            s.setInt(1, ordered.size());
            try (ResultSet rs = s.executeQuery()) {
                int i = 0;
                now = null;
                while (rs.next()) {
                    now = rs.getObject(1, OffsetDateTime.class);
                    ids[i++] = rs.getLong(2);
                }
            }
        }
        Map<Node, Long> idOf = new IdentityHashMap<>(ordered.size() * 2);
        for (int i = 0; i < ordered.size(); i++) {
            idOf.put(ordered.get(i), ids[i]);
        }

        var copy = c.unwrap(PGConnection.class).getCopyAPI();
        OffsetDateTime time = now;
        CopyPipe.run(copy.copyIn(COPY_NODES), nodes -> {
            for (Node n : ordered) {
                String hash = hashing.hash(n, hashes);
                hashes.put(n, hash);
                states.put(n, new Node.StoredState(idOf.get(n), time, time, userId, hash));
                nodes.number(idOf.get(n))
                        .uuid(n.uuid())
                        .text(n.nodeType())
                        .text(n.processType())
                        .text(n.label())
                        .text(n.description())
                        .time(time)
                        .time(time)
                        .number(userId)
                        .numberOrNull(n.computerId())
                        .json(n.attributesForStore())
                        .json(n.extras())
                        .json(n.files().toMetadata())
                        .text(hash);
                nodes.endRow();
            }
        });
        NodeTallies.countStored(c, ids);

        boolean anyLinks = ordered.stream().anyMatch(n -> !n.pendingIncoming().isEmpty());
        if (!anyLinks) {
            return states;
        }
        CopyRows links = new CopyRows(copy.copyIn(COPY_LINKS));
        try {
            for (Node n : ordered) {
                for (PendingLink link : n.pendingIncoming()) {
                    Node.StoredState source = states.get(link.source());
                    links.number(source != null ? source.id() : link.source().id())
                            .number(states.get(n).id())
                            .text(link.type().dbValue())
                            .text(link.label());
                    links.endRow();
                }
            }
            links.finish();
        } catch (SQLException | RuntimeException e) {
            links.abandon();
            throw e;
        }
        return states;
    }

    private static Map<Node, Node.StoredState> insertSmall(
            Connection c, List<Node> ordered, long userId, NodeHashing hashing) throws SQLException {
        int size = ordered.size();
        Map<Node, String> hashes = new IdentityHashMap<>(size * 2);
        Map<Node, Integer> position = new IdentityHashMap<>(size * 2);
        Object[] uuids = new Object[size];
        String[] types = new String[size], processTypes = new String[size], labels = new String[size];
        String[] descriptions = new String[size], attributes = new String[size], extras = new String[size];
        String[] files = new String[size], hashText = new String[size];
        Long[] computers = new Long[size];
        List<Long> sources = new ArrayList<>();
        List<Integer> targets = new ArrayList<>();
        List<String> linkTypes = new ArrayList<>(), linkLabels = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            Node n = ordered.get(i);
            position.put(n, i + 1);
            String hash = hashing.hash(n, hashes);
            hashes.put(n, hash);
            uuids[i] = n.uuid();
            types[i] = n.nodeType();
            processTypes[i] = n.processType();
            labels[i] = n.label();
            descriptions[i] = n.description();
            computers[i] = n.computerId();
            attributes[i] = JsonText.write(n.attributesForStore());
            extras[i] = JsonText.write(n.extras());
            files[i] = JsonText.write(n.files().toMetadata());
            hashText[i] = hash;
            for (PendingLink link : n.pendingIncoming()) {
                Integer inBatch = position.get(link.source());
                sources.add(
                        inBatch != null ? -inBatch.longValue() : link.source().id());
                targets.add(i + 1);
                linkTypes.add(link.type().dbValue());
                linkLabels.add(link.label());
            }
        }
        Map<Node, Node.StoredState> states = new IdentityHashMap<>(size * 2);
        try (PreparedStatement s = c.prepareStatement(INSERT_SMALL)) {
            int p = 1;
            s.setArray(p++, c.createArrayOf("uuid", uuids));
            s.setArray(p++, c.createArrayOf("text", types));
            s.setArray(p++, c.createArrayOf("text", processTypes));
            s.setArray(p++, c.createArrayOf("text", labels));
            s.setArray(p++, c.createArrayOf("text", descriptions));
            s.setArray(p++, c.createArrayOf("bigint", computers));
            s.setArray(p++, c.createArrayOf("text", attributes));
            s.setArray(p++, c.createArrayOf("text", extras));
            s.setArray(p++, c.createArrayOf("text", files));
            s.setArray(p++, c.createArrayOf("text", hashText));
            s.setLong(p++, userId);
            s.setArray(p++, c.createArrayOf("bigint", sources.toArray()));
            s.setArray(p++, c.createArrayOf("integer", targets.toArray()));
            s.setArray(p++, c.createArrayOf("text", linkTypes.toArray()));
            s.setArray(p, c.createArrayOf("text", linkLabels.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                for (Node n : ordered) {
                    rs.next();
                    OffsetDateTime time = rs.getObject(2, OffsetDateTime.class);
                    states.put(n, new Node.StoredState(rs.getLong(1), time, time, userId, hashes.get(n)));
                }
            }
        }
        return states;
    }
}
