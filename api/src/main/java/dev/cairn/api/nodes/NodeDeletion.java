package dev.cairn.api.nodes;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.LongStream;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.stereotype.Component;

import dev.cairn.engine.Engine;
import dev.cairn.errors.ConflictException;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.traversal.DeletionPlan;
import dev.cairn.storage.graph.traversal.DeletionResult;
import dev.cairn.storage.graph.traversal.NodeDeleter;
import dev.cairn.storage.graph.traversal.TraversalRules;

/**
 * Deletes nodes with what AiiDA's DELETE traversal rules drag along ({@link NodeDeleter}), or tells
 * what that would be. A process in the way that has not ended (not sealed) is refused: deleting the
 * node of a running process would pull the graph from under its worker.
 */
@Component
class NodeDeletion {

    /** The most nodes a report names one by one; the counts cover all. */
    static final int LISTED = 1000;

    /** A node a deletion takes. */
    record Listed(
            @Schema(example = "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55")
            UUID uuid,

            @JsonProperty("node_type") @Schema(example = "data.core.int.Int.")
            String nodeType,

            @Schema(example = "x") String label) {}

    /**
     * What a deletion removed, or would remove.
     *
     * @param dryRun  whether this is only the plan
     * @param count   the nodes, seeds included
     * @param byType  the nodes per node type
     * @param nodes   the first {@value #LISTED} of them by id
     * @param links   links removed with them (absent in a dry run)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "What a deletion removed, or (dry run) would remove")
    record Report(
            @JsonProperty("dry_run") boolean dryRun,
            @Schema(example = "3") long count,

            @JsonProperty("by_type") @Schema(example = "{\"data.core.int.Int.\": 2}")
            Map<String, Long> byType,

            @Schema(description = "The nodes, at most " + LISTED + ", by id")
            List<Listed> nodes,

            @Schema(nullable = true) Long links,

            @JsonProperty("group_memberships") @Schema(nullable = true)
            Long groupMemberships,

            @Schema(nullable = true) Long comments,
            @Schema(nullable = true) Long logs) {}

    private final Engine engine;
    private final NodeReader reader;

    NodeDeletion(Engine engine, NodeReader reader) {
        this.engine = engine;
        this.reader = reader;
    }

    Report run(List<String> refs, List<String> disabled, boolean dryRun) {
        Set<Long> seeds = new LinkedHashSet<>();
        for (String ref : refs) {
            seeds.add(reader.id(ref));
        }
        TraversalRules rules = TraversalRules.DELETE;
        for (String rule : disabled) {
            rules = rules.with(rule.strip(), false);
        }
        NodeIds ids = NodeIds.of(seeds.stream().mapToLong(Long::longValue).toArray());
        NodeDeleter deleter = new NodeDeleter(engine.database());
        try {
            Report plan;
            try (DeletionPlan p = deleter.plan(ids, rules)) {
                long[] all;
                try (LongStream stream = p.nodeIds()) {
                    all = stream.toArray();
                }
                refuseRunning(all);
                plan = new Report(true, p.nodeCount(), p.countsByNodeType(), listed(all), null, null, null, null);
            }
            if (dryRun) {
                return plan;
            }
            DeletionResult done = deleter.delete(ids, rules);
            return new Report(
                    false,
                    done.nodes(),
                    done.nodesByType(),
                    plan.nodes(),
                    done.links(),
                    done.groupMemberships(),
                    done.comments(),
                    done.logs());
        } catch (SQLException e) {
            throw new StorageException("deleting " + seeds.size() + " node(s)", e);
        }
    }

    private void refuseRunning(long[] ids) throws SQLException {
        List<String> running = new ArrayList<>();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT uuid::text, attributes->>'process_state' FROM node"
                        + " WHERE id = ANY(?) AND node_type LIKE 'process.%'"
                        + " AND coalesce(attributes->>'sealed', 'false') <> 'true' ORDER BY id LIMIT 5")) {
            Array array = c.createArrayOf("bigint", LongStream.of(ids).boxed().toArray());
            s.setArray(1, array);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    running.add(rs.getString(1) + " (" + rs.getString(2) + ")");
                }
            }
        }
        if (!running.isEmpty()) {
            throw new ConflictException("the deletion would take processes that have not ended: "
                    + String.join(", ", running) + "; kill them or wait until they end");
        }
    }

    private List<Listed> listed(long[] ids) throws SQLException {
        List<Listed> listed = new ArrayList<>();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT uuid, node_type, label FROM node WHERE id = ANY(?) ORDER BY id LIMIT " + LISTED)) {
            s.setArray(1, c.createArrayOf("bigint", LongStream.of(ids).boxed().toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    listed.add(new Listed(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3)));
                }
            }
        }
        return listed;
    }
}
