package dev.cairn.api.groups;

import java.net.URI;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
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
import dev.cairn.api.groups.GroupRequests.GroupPatch;
import dev.cairn.api.groups.GroupRequests.MemberChange;
import dev.cairn.api.groups.GroupRequests.MembersChanged;
import dev.cairn.api.groups.GroupRequests.NewGroup;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.web.Page;
import dev.cairn.storage.errors.InvalidInputException;

/** Named sets of nodes: made, listed, shown, changed, deleted, filled and emptied, read a page at a time. */
@RestController
@RequestMapping("/api/v1/groups")
@Tag(name = "groups", description = "Named sets of nodes: reading needs the role read, changing submit")
class GroupsController {

    private static final String REF = "the group's label (among the groups of its type) or uuid";
    private static final String TYPE =
            "the type string of the group named by label: core (users' groups)," + " core.import, ...";
    private static final int DEFAULT_LIMIT = 100;

    private final GroupService groups;
    private final CairnProperties properties;

    GroupsController(GroupService groups, CairnProperties properties) {
        this.groups = groups;
        this.properties = properties;
    }

    @PostMapping
    @Operation(
            operationId = "createGroup",
            summary = "Make a group",
            description = "An empty group, made as the caller. Its label is unique among the groups of its type.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            schema = @Schema(implementation = NewGroup.class),
                                            examples =
                                                    @ExampleObject(
                                                            value =
                                                                    "{\"label\": \"relaxations\", \"description\": \"PBE relaxations\","
                                                                            + " \"extras\": {\"project\": \"abx3\"}}"))),
            responses = {
                @ApiResponse(responseCode = "201", description = "the group, made"),
                @ApiResponse(responseCode = "409", description = "a group of the type has the label already")
            })
    ResponseEntity<GroupView> create(@RequestBody NewGroup body) {
        GroupView group = groups.create(body, CurrentUser.id());
        return ResponseEntity.created(URI.create("/api/v1/groups/" + group.uuid()))
                .body(group);
    }

    @GetMapping
    @Operation(
            operationId = "listGroups",
            summary = "List groups",
            description = "The groups of one type (core unless 'type' says otherwise), by label, each with its node"
                    + " count, a page at a time: pass a page's 'next' as 'cursor' for the one after it.")
    Page<GroupView> list(
            @Parameter(description = "the groups' type string", example = "core")
                    @RequestParam(name = "type", defaultValue = GroupService.CORE)
                    String type,
            @Parameter(description = "the most groups on one page (up to cairn.limits.page-max)", example = "100")
                    @RequestParam(name = "limit", defaultValue = "" + DEFAULT_LIMIT)
                    int limit,
            @Parameter(description = "the 'next' of the page before") @RequestParam(name = "cursor", required = false)
                    String cursor) {
        requireLimit(limit);
        return groups.list(type, cursor, limit);
    }

    @GetMapping("/{group}")
    @Operation(operationId = "showGroup", summary = "Show a group", description = "The group with its node count.")
    GroupView show(
            @Parameter(description = REF, example = "relaxations") @PathVariable("group") String ref,
            @Parameter(description = TYPE, example = "core")
                    @RequestParam(name = "type", defaultValue = GroupService.CORE)
                    String type) {
        return groups.show(ref, type);
    }

    @PatchMapping("/{group}")
    @Operation(
            operationId = "changeGroup",
            summary = "Change a group",
            description = "Changes the label, the description and extras; what the body leaves out stays. An"
                    + " extra set to null is removed. Every field is checked before anything changes.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            schema = @Schema(implementation = GroupPatch.class),
                                            examples =
                                                    @ExampleObject(
                                                            value =
                                                                    "{\"label\": \"relaxations-pbe\", \"extras\": {\"reviewed\": true,"
                                                                            + " \"draft\": null}}"))),
            responses = {
                @ApiResponse(responseCode = "200", description = "the group as it is now"),
                @ApiResponse(responseCode = "409", description = "a group of the type has the new label")
            })
    GroupView change(
            @Parameter(description = REF, example = "relaxations") @PathVariable("group") String ref,
            @Parameter(description = TYPE, example = "core")
                    @RequestParam(name = "type", defaultValue = GroupService.CORE)
                    String type,
            @RequestBody GroupPatch body) {
        return groups.change(ref, type, body);
    }

    @DeleteMapping("/{group}")
    @Operation(
            operationId = "deleteGroup",
            summary = "Delete a group",
            description = "Deletes the group; its nodes stay.",
            responses = @ApiResponse(responseCode = "204", description = "deleted"))
    ResponseEntity<Void> delete(
            @Parameter(description = REF, example = "relaxations") @PathVariable("group") String ref,
            @Parameter(description = TYPE, example = "core")
                    @RequestParam(name = "type", defaultValue = GroupService.CORE)
                    String type) {
        groups.delete(ref, type);
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/{group}/nodes")
    @Operation(
            operationId = "changeGroupNodes",
            summary = "Add and remove nodes",
            description = "Adds the nodes of 'add' and removes those of 'remove', by uuid, in one transaction. A uuid"
                    + " no node has is a 400 naming it, and nothing changes. Adding a member again or removing a"
                    + " node that is not one does nothing.",
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            content =
                                    @Content(
                                            schema = @Schema(implementation = MemberChange.class),
                                            examples =
                                                    @ExampleObject(
                                                            value =
                                                                    "{\"add\": [\"0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b\"], \"remove\": []}"))))
    MembersChanged changeNodes(
            @Parameter(description = REF, example = "relaxations") @PathVariable("group") String ref,
            @Parameter(description = TYPE, example = "core")
                    @RequestParam(name = "type", defaultValue = GroupService.CORE)
                    String type,
            @RequestBody MemberChange body) {
        return groups.changeNodes(ref, type, body);
    }

    @GetMapping("/{group}/nodes")
    @Operation(
            operationId = "listGroupNodes",
            summary = "List a group's nodes",
            description = "The group's nodes in short (uuid, type, label, creation time), in the order they were"
                    + " stored, a page at a time: pass a page's 'next' as 'cursor' for the one after it.")
    Page<MemberView> listNodes(
            @Parameter(description = REF, example = "relaxations") @PathVariable("group") String ref,
            @Parameter(description = TYPE, example = "core")
                    @RequestParam(name = "type", defaultValue = GroupService.CORE)
                    String type,
            @Parameter(description = "the most nodes on one page (up to cairn.limits.page-max)", example = "100")
                    @RequestParam(name = "limit", defaultValue = "" + DEFAULT_LIMIT)
                    int limit,
            @Parameter(description = "the 'next' of the page before") @RequestParam(name = "cursor", required = false)
                    String cursor,
            @Parameter(description = "also count the group's nodes", example = "false")
                    @RequestParam(name = "count", defaultValue = "false")
                    boolean count) {
        requireLimit(limit);
        return groups.listNodes(ref, type, cursor, limit, count);
    }

    private void requireLimit(int limit) {
        int max = properties.limits().pageMax();
        if (limit < 1 || limit > max) {
            throw new InvalidInputException("limit must be from 1 to " + max + ", not " + limit);
        }
    }
}
