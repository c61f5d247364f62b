package dev.cairn.api.nodes;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.web.Page;
import dev.cairn.api.web.Paging;

/** A node's place in the graph: its links each way, its ancestors and its descendants. */
@RestController
@RequestMapping("/api/v1/nodes/{ref}")
@Tag(name = "nodes")
class NodeGraphController {

    private final NodeService nodes;
    private final int pageMax;

    NodeGraphController(NodeService nodes, CairnProperties properties) {
        this.nodes = nodes;
        this.pageMax = properties.limits().pageMax();
    }

    @GetMapping("/links/incoming")
    @Operation(
            operationId = "listIncomingLinks",
            summary = "The links into a node",
            description = "Each link with its type, its label and the node it comes from (an input, the creator, the"
                    + " caller), in the order the links were made; the node filters apply to those nodes."
                    + " Example: `GET /api/v1/nodes/0190c1a2/links/incoming?link_types=input_calc`.")
    @NodeFilterParameters
    ResponseEntity<Page<LinkedNode>> incoming(
            @Parameter(description = NodesController.REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @Parameter(description = NodeParams.LINK_TYPES, example = "input_calc,input_work")
                    @RequestParam(name = "link_types", required = false)
                    String linkTypes,
            @Parameter(description = "Only links with this label", example = "x")
                    @RequestParam(name = "link_label", required = false)
                    String linkLabel,
            @Parameter(description = NodeParams.LIMIT) @RequestParam(name = "limit", required = false) Integer limit,
            @Parameter(description = NodeParams.CURSOR) @RequestParam(name = "cursor", required = false) String cursor,
            @Parameter(description = NodeParams.COUNT) @RequestParam(name = "count", defaultValue = "false")
                    boolean count,
            @Parameter(hidden = true) HttpServletRequest request) {
        return links(ref, true, linkTypes, linkLabel, limit, cursor, count, request);
    }

    @GetMapping("/links/outgoing")
    @Operation(
            operationId = "listOutgoingLinks",
            summary = "The links out of a node",
            description = "Each link with its type, its label and the node it goes to (what a process made, used,"
                    + " called or returned; the processes a data node went into), in the order the links were made.")
    @NodeFilterParameters
    ResponseEntity<Page<LinkedNode>> outgoing(
            @Parameter(description = NodesController.REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @Parameter(description = NodeParams.LINK_TYPES, example = "create")
                    @RequestParam(name = "link_types", required = false)
                    String linkTypes,
            @Parameter(description = "Only links with this label", example = "result")
                    @RequestParam(name = "link_label", required = false)
                    String linkLabel,
            @Parameter(description = NodeParams.LIMIT) @RequestParam(name = "limit", required = false) Integer limit,
            @Parameter(description = NodeParams.CURSOR) @RequestParam(name = "cursor", required = false) String cursor,
            @Parameter(description = NodeParams.COUNT) @RequestParam(name = "count", defaultValue = "false")
                    boolean count,
            @Parameter(hidden = true) HttpServletRequest request) {
        return links(ref, false, linkTypes, linkLabel, limit, cursor, count, request);
    }

    private ResponseEntity<Page<LinkedNode>> links(
            String ref,
            boolean incoming,
            String linkTypes,
            String linkLabel,
            Integer limit,
            String cursor,
            boolean count,
            HttpServletRequest request) {
        NodeSelection selection = NodeParams.selection(request);
        int size = Paging.limit(limit, pageMax);
        return Paging.response(
                nodes.links(ref, incoming, NodeParams.linkTypes(linkTypes), linkLabel, selection, cursor, size, count));
    }

    @GetMapping("/ancestors")
    @Operation(
            operationId = "listAncestors",
            summary = "A node's ancestors",
            description = "The nodes a node comes from, through links of `link_types` (by default the data"
                    + " provenance: create and input_calc), at most `depth` links away; each node once however many"
                    + " paths lead to it. Filtered, sorted and paged as the node list is."
                    + " Example: `GET /api/v1/nodes/0190c1a2/ancestors?depth=2&type=StructureData`.")
    @NodeFilterParameters
    ResponseEntity<Page<NodeSummary>> ancestors(
            @Parameter(description = NodesController.REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @Parameter(description = "The most links walked (1 or more); no limit when left out", example = "2")
                    @RequestParam(name = "depth", required = false)
                    Integer depth,
            @Parameter(description = NodeParams.LINK_TYPES, example = "all")
                    @RequestParam(name = "link_types", required = false)
                    String linkTypes,
            @Parameter(description = NodeParams.ORDER) @RequestParam(name = "order", required = false) String order,
            @Parameter(description = NodeParams.LIMIT) @RequestParam(name = "limit", required = false) Integer limit,
            @Parameter(description = NodeParams.CURSOR) @RequestParam(name = "cursor", required = false) String cursor,
            @Parameter(description = NodeParams.COUNT) @RequestParam(name = "count", defaultValue = "false")
                    boolean count,
            @Parameter(hidden = true) HttpServletRequest request) {
        return walk(ref, true, depth, linkTypes, order, limit, cursor, count, request);
    }

    @GetMapping("/descendants")
    @Operation(
            operationId = "listDescendants",
            summary = "A node's descendants",
            description = "The nodes that come from a node, through links of `link_types` (by default the data"
                    + " provenance: create and input_calc), at most `depth` links away; each node once. Filtered,"
                    + " sorted and paged as the node list is.")
    @NodeFilterParameters
    ResponseEntity<Page<NodeSummary>> descendants(
            @Parameter(description = NodesController.REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @Parameter(description = "The most links walked (1 or more); no limit when left out", example = "1")
                    @RequestParam(name = "depth", required = false)
                    Integer depth,
            @Parameter(description = NodeParams.LINK_TYPES, example = "create,input_calc")
                    @RequestParam(name = "link_types", required = false)
                    String linkTypes,
            @Parameter(description = NodeParams.ORDER) @RequestParam(name = "order", required = false) String order,
            @Parameter(description = NodeParams.LIMIT) @RequestParam(name = "limit", required = false) Integer limit,
            @Parameter(description = NodeParams.CURSOR) @RequestParam(name = "cursor", required = false) String cursor,
            @Parameter(description = NodeParams.COUNT) @RequestParam(name = "count", defaultValue = "false")
                    boolean count,
            @Parameter(hidden = true) HttpServletRequest request) {
        return walk(ref, false, depth, linkTypes, order, limit, cursor, count, request);
    }

    private ResponseEntity<Page<NodeSummary>> walk(
            String ref,
            boolean ancestors,
            Integer depth,
            String linkTypes,
            String order,
            Integer limit,
            String cursor,
            boolean count,
            HttpServletRequest request) {
        NodeService.requireDepth(depth);
        NodeSelection selection = NodeParams.selection(request);
        NodeOrder sort = NodeOrder.parse(order);
        int size = Paging.limit(limit, pageMax);
        return Paging.response(nodes.walk(
                ref, ancestors, depth, NodeParams.linkTypes(linkTypes), selection, sort, cursor, size, count));
    }
}
