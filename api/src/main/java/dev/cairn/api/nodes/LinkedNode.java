package dev.cairn.api.nodes;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A link of a node and the node at its other end.
 *
 * @param type  the link type: {@code create}, {@code return}, {@code input_calc}, {@code input_work},
 *              {@code call_calc} or {@code call_work}
 * @param label the link's label (a process's port)
 * @param node  the node at the other end
 */
@Schema(description = "A link of a node and the node at its other end")
public record LinkedNode(
        @Schema(example = "input_calc") String type,
        @Schema(example = "x") String label,
        NodeSummary node) {}
