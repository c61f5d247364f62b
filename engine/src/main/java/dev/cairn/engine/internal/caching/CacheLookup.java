package dev.cairn.engine.internal.caching;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.NodeCopies;
import dev.cairn.storage.graph.NodeRows;
import dev.cairn.storage.graph.NodeTypes;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.StorageException;

/**
 * Finds a valid cache source for a calculation: a finished, sealed node of the same node
 * and process type with the same hash, whose exit status does not invalidate caching and
 * which nobody marked invalid; and says why a launch did not find one.
 */
public final class CacheLookup {

    /**
     * The candidates with their outputs (CREATE and RETURN links, in link order), one row per
     * output: a hit needs the node and its outputs, and one query gets both.
     */
    private static final String FIND = "SELECT " + NodeRows.columnsOf("c") + ", l.label, " + NodeRows.columnsOf("o")
            + "\n" + """
         FROM (SELECT * FROM node n
                WHERE n.hash = ? AND n.node_type = ? AND n.process_type = ? AND n.id <> ?
                  AND n.attributes ->> 'process_state' = 'finished'
                  AND coalesce((n.attributes ->> 'sealed')::boolean, false)
                  AND NOT coalesce((n.attributes ->> 'exit_status')::int = ANY (?), false)
                  AND coalesce(n.extras ->> '%s', 'true') <> 'false'
                ORDER BY n.id LIMIT 20) c
         LEFT JOIN link l ON l.input_id = c.id AND l.type IN ('create', 'return')
         LEFT JOIN node o ON o.id = l.output_id
         ORDER BY c.id, l.id""".formatted(CachingExtras.VALID_CACHE);
    /** The column of an output's link label in {@link #FIND}'s rows, after the candidate's columns. */
    private static final int LABEL = NodeRows.COUNT + 1;

    private CacheLookup() {}

    /**
     * A source for {@code node} (whose hash is {@code hash}), with copies of its outputs;
     * empty when there is none. {@code usable} may refuse a candidate that the database
     * cannot judge (a work directory that is gone); the next one is tried.
     */
    public static Optional<CacheHit> find(
            GraphTransaction g, ProcessNode node, String hash, ProcessSpec spec, Predicate<CacheHit> usable) {
        Connection c = g.connection();
        long self = node.isStored() ? node.id() : -1;
        try (PreparedStatement s = c.prepareStatement(FIND)) {
            s.setString(1, hash);
            s.setString(2, node.nodeType());
            s.setString(3, node.processType());
            s.setLong(4, self);
            s.setArray(5, c.createArrayOf("integer", invalidating(spec).toArray()));
            // Rows come by candidate: each is judged once its outputs are read, and the first usable one
            // ends the lookup, so the outputs of candidates after it are never decoded.
            ProcessNode source = null;
            Map<String, Data> copies = new LinkedHashMap<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    long id = rs.getLong(1);
                    if (source == null || source.id() != id) {
                        Optional<CacheHit> hit = usableHit(source, copies, usable);
                        if (hit.isPresent()) {
                            return hit;
                        }
                        source = (ProcessNode) NodeTypes.read(NodeRows.read(rs, 1));
                        copies = new LinkedHashMap<>();
                    }
                    String label = rs.getString(LABEL);
                    if (label != null) {
                        Data output = (Data) NodeTypes.read(NodeRows.read(rs, LABEL + 1));
                        copies.put(ProcessSpec.portPath(label), NodeCopies.copyOf(output));
                    }
                }
            }
            return usableHit(source, copies, usable);
        } catch (SQLException e) {
            throw new StorageException("looking up the cache for " + node.describe(), e);
        }
    }

    private static Optional<CacheHit> usableHit(
            ProcessNode source, Map<String, Data> copies, Predicate<CacheHit> usable) {
        if (source == null) {
            return Optional.empty();
        }
        CacheHit hit = new CacheHit(source, copies);
        return usable.test(hit) ? Optional.of(hit) : Optional.empty();
    }

    /** Exit statuses that keep a node from being a cache source. */
    static List<Integer> invalidating(ProcessSpec spec) {
        List<Integer> statuses = new ArrayList<>();
        for (ExitCode code : spec.exitCodes().values()) {
            if (code.invalidatesCache()) {
                statuses.add(code.status());
            }
        }
        return statuses;
    }

    /**
     * Why {@code node} did or did not hit the cache: the source it would use, or the
     * nearest finished node of the same process type and how its inputs differ (by link
     * label: missing, extra, or a different hash).
     */
    public static String explain(
            GraphTransaction g, ProcessNode node, String hash, ProcessSpec spec, Map<String, String> inputHashes) {
        Optional<CacheHit> hit = find(g, node, hash, spec, candidate -> true);
        if (hit.isPresent()) {
            return "hit: " + hit.get().source().describe() + " has the same hash " + hash;
        }
        Connection c = g.connection();
        try (PreparedStatement s = c.prepareStatement(
                "SELECT n.id, count(*) FILTER (WHERE i.hash = ANY(?)) AS same"
                        + " FROM node n LEFT JOIN link l ON l.output_id = n.id AND l.type IN ('input_calc', 'input_work')"
                        + " LEFT JOIN node i ON i.id = l.input_id WHERE n.process_type = ? AND n.node_type = ? AND n.id <> ?"
                        + " AND n.attributes ->> 'process_state' = 'finished' GROUP BY n.id ORDER BY same DESC, n.id DESC LIMIT 1")) {
            s.setArray(1, c.createArrayOf("text", inputHashes.values().toArray()));
            s.setString(2, node.processType());
            s.setString(3, node.nodeType());
            s.setLong(4, node.isStored() ? node.id() : -1);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return "miss: no finished " + node.processType() + " exists yet";
                }
                long nearest = rs.getLong(1);
                Map<String, String> theirs = new LinkedHashMap<>();
                g.inputsOf(nearest).forEach((label, in) -> theirs.put(label, in.hash()));
                List<String> differences = new ArrayList<>();
                for (String label : new TreeSet<>(union(inputHashes, theirs))) {
                    String mine = inputHashes.get(label);
                    String other = theirs.get(label);
                    if (mine == null) {
                        differences.add("'" + label + "' is an input of the candidate only");
                    } else if (other == null) {
                        differences.add("'" + label + "' is an input of this launch only");
                    } else if (!mine.equals(other)) {
                        differences.add("'" + label + "' differs (" + mine.substring(0, 12) + "… here, "
                                + other.substring(0, 12) + "… there)");
                    }
                }
                ProcessNode candidate = (ProcessNode) g.load(nearest);
                if (differences.isEmpty()) {
                    return "miss: the nearest candidate " + candidate.describe() + " has the same inputs but is not a"
                            + " valid cache source (exit status " + candidate.exitStatus()
                            + ", or marked invalid), or its"
                            + " other attributes differ";
                }
                return "miss: the nearest candidate " + candidate.describe() + ": " + String.join("; ", differences);
            }
        } catch (SQLException e) {
            throw new StorageException("explaining the cache for " + node.describe(), e);
        }
    }

    private static Set<String> union(Map<String, String> a, Map<String, String> b) {
        Set<String> all = new HashSet<>(a.keySet());
        all.addAll(b.keySet());
        return all;
    }
}
