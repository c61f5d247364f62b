package dev.cairn.api.pages.graph;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A graph laid out for drawing: what the page's Cytoscape.js draws at the given positions (its
 * {@code preset} layout) and what the SVG export draws from the same positions.
 *
 * @param centre    the uuid of the node in the middle
 * @param layoutKey the same for two graphs of the same nodes and links: the page lays out again only when it changes
 * @param truncated whether nodes were left out to keep the graph drawable
 */
record DrawnGraph(String centre, String layoutKey, List<Node> nodes, List<Edge> edges, boolean truncated) {

    /**
     * A node; a count standing for a folded fan-out ({@code kind} "fold", {@code fold} naming it); or the
     * frame of an opened fan-out ({@code kind} "block"), drawn behind its members.
     *
     * @param id    the node's uuid; a fold's is {@code fold:<uuid>:out} or {@code :in}, a block's {@code block:…}
     * @param kind  data, calculation, workflow, fold or block: the shape
     * @param type  the node's type as people name it (Int, StructureData, arithmetic.add)
     * @param state a process's state, finished with a non-zero exit status being "failed"; else null
     * @param block the block a member of an opened fan-out stands in: the page draws the members of a block
     *              as one picture inside its frame, not as thousands of elements, and a click picks one
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Node(
            String id,
            String label,
            String kind,
            String type,
            String state,
            double x,
            double y,
            double width,
            double height,
            String fold,
            Boolean onPath,
            String block) {}

    /**
     * @param type    the link type's name (create, input_calc, ...); "fold" for a link to a count
     * @param bundled a link from a fan-out's node to a member of its block: the one link to the block is drawn
     *                in its stead (a page shows it when its member is selected)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Edge(
            String id, String source, String target, String type, String label, Boolean onPath, Boolean bundled) {}
}
