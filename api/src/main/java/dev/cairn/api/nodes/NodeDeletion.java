package dev.cairn.api.nodes;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import org.springframework.stereotype.Component;

import dev.cairn.api.web.NodeRefs;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.traversal.DeletionPreview;
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
    public record Listed(
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
    public record Report(
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

    /** How many processes that have not ended a refusal names. */
    private static final int NAMED = 5;

    private final NodeDeleter deleter;
    private final NodeRefs refs;

    NodeDeletion(Storage storage, NodeRefs refs) {
        this.deleter = storage.deleter();
        this.refs = refs;
    }

    Report run(List<String> nodes, List<String> disabled, boolean dryRun) {
        Set<Long> seeds = new LinkedHashSet<>();
        for (String ref : nodes) {
            seeds.add(refs.id(ref));
        }
        TraversalRules rules = TraversalRules.DELETE;
        for (String rule : disabled) {
            rules = rules.with(rule.strip(), false);
        }
        NodeIds ids = NodeIds.of(seeds.stream().mapToLong(Long::longValue).toArray());
        DeletionPreview preview = deleter.preview(ids, rules, LISTED, NAMED);
        if (!preview.unended().isEmpty()) {
            throw new ConflictException("the deletion would take processes that have not ended: "
                    + String.join(
                            ", ",
                            preview.unended().stream()
                                    .map(p -> p.uuid() + " (" + p.state() + ")")
                                    .toList())
                    + "; kill them or wait until they end");
        }
        List<Listed> listed = preview.listed().stream()
                .map(n -> new Listed(n.uuid(), n.nodeType(), n.label()))
                .toList();
        if (dryRun) {
            return new Report(true, preview.count(), preview.byType(), listed, null, null, null, null);
        }
        DeletionResult done = deleter.delete(ids, rules);
        return new Report(
                false,
                done.nodes(),
                done.nodesByType(),
                listed,
                done.links(),
                done.groupMemberships(),
                done.comments(),
                done.logs());
    }
}
