package dev.cairn.api.nodes;

import java.util.Arrays;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.web.Page;
import dev.cairn.api.web.Paging;

/** The nodes of the provenance graph: lists, one node, and changes to label, description and extras. */
@RestController
@RequestMapping("/api/v1/nodes")
@Tag(name = "nodes", description = "Nodes of the provenance graph: data and processes")
class NodesController {

    /** A node's ref in a path: anything but the word of the sibling resource /nodes/files. */
    static final String REF_SEGMENT = "{ref:(?!files$).+}";

    static final String REF = "The node's uuid, a unique prefix of it (at least 4 hex digits), or its PK as pk:42";

    private final NodeService nodes;
    private final int pageMax;

    NodesController(NodeService nodes, CairnProperties properties) {
        this.nodes = nodes;
        this.pageMax = properties.limits().pageMax();
    }

    @GetMapping
    @Operation(
            operationId = "listNodes",
            summary = "List nodes",
            description = "Nodes filtered by `filter` (repeatable), `type` and `query`, sorted by `order`, a page at a"
                    + " time: pass `next` back as `cursor` (keyset paging, so a deep page costs what the first does)."
                    + " Example: `GET /api/v1/nodes?type=Int&filter=attributes.value>=3&order=-ctime&limit=20`.")
    @Parameter(
            name = "filter",
            in = ParameterIn.QUERY,
            description = NodeParams.FILTER,
            array = @ArraySchema(schema = @Schema(type = "string", example = "attributes.value>=3")))
    @Parameter(
            name = "type",
            in = ParameterIn.QUERY,
            description = NodeParams.TYPE,
            schema = @Schema(type = "string", example = "StructureData"))
    @Parameter(
            name = "query",
            in = ParameterIn.QUERY,
            description = NodeParams.QUERY,
            schema = @Schema(type = "string", example = "{\"extras.checked\": true}"))
    ResponseEntity<Page<NodeSummary>> list(
            @Parameter(description = NodeParams.ORDER, example = "-ctime")
                    @RequestParam(name = "order", required = false)
                    String order,
            @Parameter(description = NodeParams.LIMIT, example = "20") @RequestParam(name = "limit", required = false)
                    Integer limit,
            @Parameter(description = NodeParams.CURSOR) @RequestParam(name = "cursor", required = false) String cursor,
            @Parameter(description = NodeParams.COUNT) @RequestParam(name = "count", defaultValue = "false")
                    boolean count,
            @Parameter(hidden = true) HttpServletRequest request) {
        return Paging.response(nodes.list(
                NodeParams.selection(request), NodeOrder.parse(order), cursor, Paging.limit(limit, pageMax), count));
    }

    // /nodes/files is no node's ref: so OPTIONS there answers Allow with its own methods only
    @GetMapping("/" + REF_SEGMENT)
    @Operation(
            operationId = "showNode",
            summary = "One node",
            description = "The node with its attributes (all, or the keys `attributes` names), extras, the names at"
                    + " the top of its files and how many links it has each way.")
    @ApiResponse(responseCode = "200", description = "The node")
    @ApiResponse(
            responseCode = "409",
            description = "The prefix names more than one node",
            content = @Content(mediaType = "application/problem+json"))
    NodeDetails get(
            @Parameter(description = REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @Parameter(description = "Only these attribute keys, comma-separated (empty: none)", example = "cell,pbc1")
                    @RequestParam(name = "attributes", required = false)
                    String attributes,
            @Parameter(description = "Only these extra keys, comma-separated (empty: none)")
                    @RequestParam(name = "extras", required = false)
                    String extras) {
        return nodes.read(ref, keys(attributes), keys(extras));
    }

    private static List<String> keys(String list) {
        return list == null
                ? null
                : Arrays.stream(list.split(","))
                        .map(String::strip)
                        .filter(k -> !k.isEmpty())
                        .toList();
    }

    @PatchMapping(path = "/" + REF_SEGMENT, consumes = "application/json")
    @Operation(
            operationId = "changeNode",
            summary = "Change a node's label, description or extras",
            description = "Fields left out stay as they are; extras are merged into the node's, and an extra set to"
                    + " null is removed. The change is made whole or not at all. A stored"
                    + " node's attributes, files and links never change: naming `attributes` is a 409.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            schema = @Schema(implementation = NodePatch.Body.class),
                                            examples =
                                                    @ExampleObject(
                                                            value = "{\"label\": \"relaxed\", \"extras\":"
                                                                    + " {\"checked\": true, \"old_tag\": null}}"))))
    @ApiResponse(responseCode = "200", description = "The node as changed")
    @ApiResponse(
            responseCode = "409",
            description = "The body names attributes, which never change once stored",
            content = @Content(mediaType = "application/problem+json"))
    NodeDetails patch(
            @Parameter(description = REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @RequestBody(required = false) String body) {
        return nodes.update(ref, NodePatch.parse(body));
    }

    @PostMapping("/{ref}/rehash")
    @Operation(
            operationId = "rehashNode",
            summary = "Compute a node's hash again",
            description = "Computes the hash caching finds a node by from what is stored (for a process, from its"
                    + " inputs' stored hashes by link label) and stores it when it differs, as `verdi node rehash`"
                    + " does after the hash's form changed. Rehash inputs before the processes that used them.")
    @ApiResponse(responseCode = "200", description = "The hash now, the one before, and whether it changed")
    @ApiResponse(
            responseCode = "400",
            description = "A malformed ref, or an input of the process has no hash",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(
            responseCode = "404",
            description = "No such node",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(
            responseCode = "409",
            description = "The prefix names more than one node",
            content = @Content(mediaType = "application/problem+json"))
    Rehashed rehash(@Parameter(description = REF, example = "0190c1a2") @PathVariable("ref") String ref) {
        return nodes.rehash(ref);
    }

    @DeleteMapping
    @Operation(
            operationId = "deleteNodes",
            summary = "Delete nodes, or tell what deleting them would take",
            description = "Deletes the nodes `node` names with everything AiiDA's deletion rules take along, so that"
                    + " nothing left misses part of its provenance: the processes that used a data node and what they"
                    + " made, the caller of a deleted process, and (unless `disable` switches the rule off) what a"
                    + " process created (`create_forward`) or called (`call_calc_forward`, `call_work_forward`)."
                    + " All in one transaction; file contents are removed later by maintenance. With `dry_run=true`"
                    + " nothing changes and the answer is what would go. A rule that cannot be switched is a 400; a"
                    + " deletion that would take a process that has not ended is a 409."
                    + " Example: `DELETE /api/v1/nodes?node=0190c1a2&dry_run=true`.")
    @ApiResponse(responseCode = "200", description = "What was deleted, or (dry run) what would be")
    @ApiResponse(
            responseCode = "400",
            description = "No node named, a malformed ref, or a rule that cannot be switched off",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(
            responseCode = "404",
            description = "A node named is not there",
            content = @Content(mediaType = "application/problem+json"))
    @ApiResponse(
            responseCode = "409",
            description = "A prefix names several nodes, or the deletion would take a process that has not ended",
            content = @Content(mediaType = "application/problem+json"))
    NodeDeletion.Report delete(
            @Parameter(
                            description = "A node to delete (repeatable): " + REF,
                            array = @ArraySchema(schema = @Schema(type = "string", example = "0190c1a2")))
                    @RequestParam(name = "node", required = false)
                    List<String> nodes,
            @Parameter(description = "Only tell what would be deleted")
                    @RequestParam(name = "dry_run", defaultValue = "false")
                    boolean dryRun,
            @Parameter(
                            description = "Rules to switch off: create_forward, call_calc_forward, call_work_forward",
                            array = @ArraySchema(schema = @Schema(type = "string", example = "create_forward")))
                    @RequestParam(name = "disable", required = false)
                    List<String> disable) {
        return this.nodes.delete(nodes, disable, dryRun);
    }
}
