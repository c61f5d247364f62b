package dev.cairn.storage.graph.traversal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.StorageException;

/**
 * The provenance graph around a node, as far as a person can look at it: its ancestors and its
 * descendants a few links away, the links among them, and every fan-out larger than a threshold
 * folded into a count unless it was asked for in full. One statement per link walked each way, one
 * for the nodes, one for the links among them; a fan-out is counted by the link indexes without
 * reading its nodes, so a node with a million outputs costs no more than one with a few.
 */
public final class Neighbourhood {

    /** A node's links one way: its outgoing ones (towards descendants) or its incoming ones. */
    public record Fan(long node, boolean outgoing) {}

    /**
     * What to draw.
     *
     * @param centre    the node in the middle
     * @param depth     how many links to walk from it each way
     * @param types     the link types walked and drawn
     * @param foldAbove a fan-out of more nodes than this is folded into a count
     * @param expanded  fans walked one more link beyond the depth (a click on a node)
     * @param opened    folded fans shown in full (a click on a count)
     * @param pinned    nodes shown whatever the depth and the folds (a path between two nodes)
     * @param maxNodes  the most nodes drawn; what lies beyond is cut off, and said so
     */
    public record Request(
            long centre,
            int depth,
            Set<LinkType> types,
            int foldAbove,
            Set<Fan> expanded,
            Set<Fan> opened,
            Set<Long> pinned,
            int maxNodes) {
        public Request {
            types = Set.copyOf(types);
            expanded = Set.copyOf(expanded);
            opened = Set.copyOf(opened);
            pinned = Set.copyOf(pinned);
        }
    }

    /** A node as a graph draws it; {@code state} and {@code exitStatus} are a process's, else null. */
    public record Vertex(
            long id, UUID uuid, String nodeType, String processType, String label, String state, Integer exitStatus) {}

    public record Edge(long from, long to, LinkType type, String label) {}

    /** A fan-out shown as a count: {@code count} nodes behind {@code fan}. */
    public record Fold(Fan fan, long count) {}

    /** A fan-out that was folded and is shown in full: its nodes, in order. */
    public record Opened(Fan fan, List<Long> members) {}

    /** @param truncated whether nodes were left out to stay within the request's {@code maxNodes} */
    public record Result(
            List<Vertex> vertices, List<Edge> edges, List<Fold> folds, List<Opened> opened, boolean truncated) {}

    private final Database database;

    /** The neighbourhoods of nodes of this database. */
    public Neighbourhood(Database database) {
        this.database = database;
    }

    /** The graph around {@code request.centre()}. */
    public Result around(Request request) {
        String[] types = request.types().stream().map(LinkType::dbValue).toArray(String[]::new);
        Set<Long> seen = new HashSet<>(request.pinned());
        seen.add(request.centre());
        List<Fold> folds = new ArrayList<>();
        List<Opened> opened = new ArrayList<>();
        boolean truncated = false;
        try (Connection c = database.connection()) {
            List<Fan> frontier = List.of(new Fan(request.centre(), true), new Fan(request.centre(), false));
            Set<Fan> walked = new HashSet<>();
            for (int step = 0; !frontier.isEmpty(); step++) {
                List<Fan> next = new ArrayList<>();
                for (boolean outgoing : new boolean[] {true, false}) {
                    List<Fan> fans = frontier.stream()
                            .filter(f -> f.outgoing() == outgoing && walked.add(f))
                            .toList();
                    if (fans.isEmpty()) {
                        continue;
                    }
                    Map<Fan, List<Long>> found = walk(c, fans, outgoing, types, request);
                    for (Map.Entry<Fan, List<Long>> e : found.entrySet()) {
                        Fan fan = e.getKey();
                        List<Long> others = e.getValue();
                        if (others.size() > request.foldAbove()
                                && !request.opened().contains(fan)) {
                            folds.add(new Fold(
                                    fan,
                                    others.size() == request.foldAbove() + 1 ? count(c, fan, types) : others.size()));
                            continue;
                        }
                        List<Long> added = new ArrayList<>();
                        for (long other : others) {
                            if (seen.size() >= request.maxNodes() && !seen.contains(other)) {
                                truncated = true;
                                break;
                            }
                            if (seen.add(other)) {
                                added.add(other);
                            }
                            if (step + 1 < request.depth() || request.expanded().contains(new Fan(other, outgoing))) {
                                next.add(new Fan(other, outgoing));
                            }
                        }
                        if (others.size() > request.foldAbove()) {
                            opened.add(new Opened(fan, others));
                        }
                    }
                }
                // a click on a node walks one more link from it, whatever the depth
                for (Fan fan : request.expanded()) {
                    if (seen.contains(fan.node()) && !walked.contains(fan)) {
                        next.add(fan);
                    }
                }
                frontier = next;
            }
            List<Vertex> vertices = vertices(c, seen);
            if (vertices.stream().noneMatch(v -> v.id() == request.centre())) {
                throw new NotFoundException("node " + request.centre() + " is gone");
            }
            return new Result(vertices, edges(c, seen, types), folds, opened, truncated);
        } catch (SQLException e) {
            throw new StorageException("reading the graph around node " + request.centre(), e);
        }
    }

    /**
     * The nodes each fan leads to, in id order: all of them for an opened fan (up to the request's
     * {@code maxNodes}), else at most one more than the fold threshold, enough to know it folds.
     */
    private static Map<Fan, List<Long>> walk(
            Connection c, List<Fan> fans, boolean outgoing, String[] types, Request request) throws SQLException {
        String from = outgoing ? "input_id" : "output_id";
        String to = outgoing ? "output_id" : "input_id";
        long[] ids = fans.stream().mapToLong(Fan::node).toArray();
        Long[] open = request.opened().stream()
                .filter(f -> f.outgoing() == outgoing)
                .map(Fan::node)
                .toArray(Long[]::new);
        Map<Fan, List<Long>> found = new LinkedHashMap<>();
        for (Fan fan : fans) {
            found.put(fan, new ArrayList<>());
        }
        try (PreparedStatement s = c.prepareStatement("SELECT f.id, x.other FROM unnest(?::bigint[]) AS f(id)"
                + " CROSS JOIN LATERAL (SELECT DISTINCT l." + to + " AS other FROM link l WHERE l." + from
                + " = f.id AND l.type = ANY(?::text[]) ORDER BY 1"
                + " LIMIT CASE WHEN f.id = ANY(?::bigint[]) THEN ? ELSE ? END) x")) {
            s.setArray(1, c.createArrayOf("bigint", boxed(ids)));
            s.setArray(2, c.createArrayOf("text", types));
            s.setArray(3, c.createArrayOf("bigint", open));
            s.setInt(4, request.maxNodes());
            s.setInt(5, request.foldAbove() + 1);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    found.get(new Fan(rs.getLong(1), outgoing)).add(rs.getLong(2));
                }
            }
        }
        return found;
    }

    private static long count(Connection c, Fan fan, String[] types) throws SQLException {
        String from = fan.outgoing() ? "input_id" : "output_id";
        String to = fan.outgoing() ? "output_id" : "input_id";
        try (PreparedStatement s = c.prepareStatement(
                "SELECT count(DISTINCT " + to + ") FROM link WHERE " + from + " = ? AND type = ANY(?::text[])")) {
            s.setLong(1, fan.node());
            s.setArray(2, c.createArrayOf("text", types));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static List<Vertex> vertices(Connection c, Collection<Long> ids) throws SQLException {
        List<Vertex> vertices = new ArrayList<>(ids.size());
        try (PreparedStatement s = c.prepareStatement("SELECT id, uuid, node_type, process_type, label,"
                + " attributes ->> 'process_state', attributes ->> 'exit_status' FROM node WHERE id = ANY(?)"
                + " ORDER BY id")) {
            s.setArray(1, c.createArrayOf("bigint", ids.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String exit = rs.getString(7);
                    vertices.add(new Vertex(
                            rs.getLong(1),
                            rs.getObject(2, UUID.class),
                            rs.getString(3),
                            rs.getString(4),
                            rs.getString(5),
                            rs.getString(6),
                            exit == null ? null : Integer.valueOf(exit)));
                }
            }
        }
        return vertices;
    }

    /** Every link of the types among the nodes, not only those walked: a graph shows how its nodes meet. */
    private static List<Edge> edges(Connection c, Collection<Long> ids, String[] types) throws SQLException {
        List<Edge> edges = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT input_id, output_id, type, label FROM link"
                + " WHERE input_id = ANY(?) AND output_id = ANY(?) AND type = ANY(?::text[]) ORDER BY id")) {
            var array = c.createArrayOf("bigint", ids.toArray());
            s.setArray(1, array);
            s.setArray(2, array);
            s.setArray(3, c.createArrayOf("text", types));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    edges.add(new Edge(
                            rs.getLong(1), rs.getLong(2), LinkType.fromDbValue(rs.getString(3)), rs.getString(4)));
                }
            }
        }
        return edges;
    }

    /**
     * The nodes of a shortest directed path between {@code a} and {@code b} over links of the types, in
     * either direction (a is an ancestor of b, or b of a), walking at most {@code maxNodes} nodes; empty
     * when there is none.
     */
    public List<Long> path(long a, long b, Set<LinkType> linkTypes, int maxNodes) {
        String[] types = linkTypes.stream().map(LinkType::dbValue).toArray(String[]::new);
        try (Connection c = database.connection()) {
            List<Long> forward = shortest(c, a, b, types, maxNodes);
            return forward.isEmpty() ? shortest(c, b, a, types, maxNodes).reversed() : forward;
        } catch (SQLException e) {
            throw new StorageException("finding a path between nodes " + a + " and " + b, e);
        }
    }

    /** Breadth first along outgoing links, one statement a link. */
    private static List<Long> shortest(Connection c, long from, long to, String[] types, int maxNodes)
            throws SQLException {
        Map<Long, Long> parent = new HashMap<>();
        parent.put(from, from);
        List<Long> frontier = List.of(from);
        try (PreparedStatement s = c.prepareStatement("SELECT DISTINCT ON (output_id) input_id, output_id FROM link"
                + " WHERE input_id = ANY(?) AND type = ANY(?::text[])")) {
            while (!frontier.isEmpty() && parent.size() < maxNodes) {
                s.setArray(1, c.createArrayOf("bigint", frontier.toArray()));
                s.setArray(2, c.createArrayOf("text", types));
                List<Long> next = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        long child = rs.getLong(2);
                        if (parent.putIfAbsent(child, rs.getLong(1)) == null) {
                            next.add(child);
                        }
                    }
                }
                if (parent.containsKey(to)) {
                    List<Long> path = new ArrayList<>();
                    for (long n = to; n != from; n = parent.get(n)) {
                        path.add(n);
                    }
                    path.add(from);
                    return path.reversed();
                }
                frontier = next;
            }
        }
        return List.of();
    }

    private static Long[] boxed(long[] ids) {
        Long[] boxed = new Long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            boxed[i] = ids[i];
        }
        return boxed;
    }
}
