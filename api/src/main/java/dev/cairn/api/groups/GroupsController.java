package dev.cairn.api.groups;

import java.net.URI;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

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
import dev.cairn.api.web.Cursor;
import dev.cairn.api.web.Page;
import dev.cairn.engine.Engine;
import dev.cairn.errors.InvalidInputException;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.graph.AttributeValues;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.groups.Group;
import dev.cairn.storage.graph.groups.GroupStore;
import dev.cairn.storage.graph.users.UserStore;

/** Named sets of nodes: made, listed, shown, changed, deleted, filled and emptied, read a page at a time. */
@RestController
@RequestMapping("/api/v1/groups")
@Tag(name = "groups", description = "Named sets of nodes: reading needs the role read, changing submit")
class GroupsController {

    private static final String REF = "the group's label (among the groups of its type) or uuid";
    private static final String TYPE =
            "the type string of the group named by label: core (users' groups)," + " core.import, ...";
    private static final Pattern UUID_FORM =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final int DEFAULT_LIMIT = 100;

    private final GroupStore groups;
    private final UserStore users;
    private final GroupNodes nodes;
    private final CairnProperties properties;

    GroupsController(Engine engine, GroupNodes nodes, CairnProperties properties) {
        this.groups = new GroupStore(engine.database());
        this.users = new UserStore(engine.database());
        this.nodes = nodes;
        this.properties = properties;
    }

    /** Work on the group store, whose methods say SQLException; it means the database failed. */
    private interface GroupWork<T> {
        T run() throws SQLException;
    }

    private static <T> T sql(String doing, GroupWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw new StorageException(doing, e);
        }
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
        if (body.label() == null || body.label().isBlank()) {
            throw new InvalidInputException("field 'label' is required: the group's name");
        }
        String type = body.type() == null ? GroupStore.CORE : body.type();
        Map<String, Object> extras = body.extras() == null ? Map.of() : cleanExtras(body.extras());
        Group group = sql(
                "making group " + body.label(),
                () -> groups.create(body.label(), type, body.description(), CurrentUser.id(), extras));
        return ResponseEntity.created(URI.create("/api/v1/groups/" + group.uuid()))
                .body(view(group));
    }

    @GetMapping
    @Operation(
            operationId = "listGroups",
            summary = "List groups",
            description = "The groups of one type (core unless 'type' says otherwise), by label, each with its node"
                    + " count, a page at a time: pass a page's 'next' as 'cursor' for the one after it.")
    Page<GroupView> list(
            @Parameter(description = "the groups' type string", example = "core")
                    @RequestParam(name = "type", defaultValue = GroupStore.CORE)
                    String type,
            @Parameter(description = "the most groups on one page (up to cairn.limits.page-max)", example = "100")
                    @RequestParam(name = "limit", defaultValue = "" + DEFAULT_LIMIT)
                    int limit,
            @Parameter(description = "the 'next' of the page before") @RequestParam(name = "cursor", required = false)
                    String cursor) {
        requireLimit(limit);
        String order = "label:" + type;
        String after = cursor == null
                ? null
                : (String) Cursor.decode(cursor, order).after().getFirst();
        List<Group> page = sql("listing groups", () -> groups.list(type, after, limit + 1));
        boolean more = page.size() > limit;
        List<Group> items = more ? page.subList(0, limit) : page;
        Map<Long, Long> counts = sql(
                "counting the groups' nodes",
                () -> groups.counts(items.stream().map(Group::id).toList()));
        Map<Long, String> emails = new HashMap<>();
        List<GroupView> views = items.stream()
                .map(g -> GroupView.of(
                        g,
                        emails.computeIfAbsent(g.userId(), id -> users.get(id).email()),
                        counts.getOrDefault(g.id(), 0L)))
                .toList();
        return new Page<>(
                views, more ? new Cursor(order, List.of(items.getLast().label())).encode() : null, null);
    }

    @GetMapping("/{group}")
    @Operation(operationId = "showGroup", summary = "Show a group", description = "The group with its node count.")
    GroupView show(
            @Parameter(description = REF, example = "relaxations") @PathVariable("group") String ref,
            @Parameter(description = TYPE, example = "core")
                    @RequestParam(name = "type", defaultValue = GroupStore.CORE)
                    String type) {
        return view(find(ref, type));
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
                    @RequestParam(name = "type", defaultValue = GroupStore.CORE)
                    String type,
            @RequestBody GroupPatch body) {
        Group group = find(ref, type);
        if (body.label() != null && body.label().isBlank()) {
            throw new InvalidInputException("field 'label': a group's label may not be empty");
        }
        Map<String, Object> set = new LinkedHashMap<>();
        Set<String> remove = new HashSet<>();
        if (body.extras() != null) {
            body.extras().forEach((k, v) -> {
                if (v == null) {
                    remove.add(k);
                } else {
                    set.put(k, v);
                }
            });
        }
        Map<String, Object> extras = cleanExtras(set);
        return view(sql("changing group " + group.label(), () -> {
            // the label first: it is the one change that can be refused (taken), before the others are made
            Group changed = body.label() == null ? group : groups.relabel(group.id(), body.label());
            if (body.description() != null) {
                changed = groups.describe(group.id(), body.description());
            }
            if (!extras.isEmpty() || !remove.isEmpty()) {
                changed = groups.changeExtras(group.id(), extras, remove);
            }
            return changed;
        }));
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
                    @RequestParam(name = "type", defaultValue = GroupStore.CORE)
                    String type) {
        Group group = find(ref, type);
        sql("deleting group " + group.label(), () -> {
            groups.delete(group.id());
            return null;
        });
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
                    @RequestParam(name = "type", defaultValue = GroupStore.CORE)
                    String type,
            @RequestBody MemberChange body) {
        Group group = find(ref, type);
        long[] add = nodes.ids("add", body.add());
        long[] remove = nodes.ids("remove", body.remove());
        return sql("changing the nodes of group " + group.label(), () -> {
            GroupStore.MembershipChange change = groups.changeMembers(group.id(), NodeIds.of(add), NodeIds.of(remove));
            return new MembersChanged(change.added(), change.removed(), groups.count(group.id()));
        });
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
                    @RequestParam(name = "type", defaultValue = GroupStore.CORE)
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
        Group group = find(ref, type);
        String order = "members:" + group.uuid();
        long after = cursor == null
                ? 0
                : ((Number) Cursor.decode(cursor, order).after().getFirst()).longValue();
        List<GroupNodes.Member> page = nodes.page(group.id(), after, limit + 1);
        boolean more = page.size() > limit;
        List<GroupNodes.Member> items = more ? page.subList(0, limit) : page;
        String next = more ? new Cursor(order, List.of(items.getLast().id())).encode() : null;
        Long total = count ? sql("counting group " + group.label(), () -> groups.count(group.id())) : null;
        return new Page<>(items.stream().map(GroupNodes.Member::view).toList(), next, total);
    }

    private Group find(String ref, String type) {
        if (UUID_FORM.matcher(ref).matches()) {
            var byUuid = sql("finding group " + ref, () -> groups.find(UUID.fromString(ref)));
            if (byUuid.isPresent()) {
                return byUuid.get();
            }
        }
        return sql("finding group " + ref, () -> groups.find(ref, type))
                .orElseThrow(() -> new NotFoundException("no group of type '" + type + "' is labelled '" + ref + "'"
                        + (UUID_FORM.matcher(ref).matches() ? " or has that uuid" : "")));
    }

    private GroupView view(Group g) {
        return GroupView.of(
                g, users.get(g.userId()).email(), sql("counting group " + g.label(), () -> groups.count(g.id())));
    }

    private void requireLimit(int limit) {
        int max = properties.limits().pageMax();
        if (limit < 1 || limit > max) {
            throw new InvalidInputException("limit must be from 1 to " + max + ", not " + limit);
        }
    }

    private static Map<String, Object> cleanExtras(Map<String, Object> extras) {
        return AttributeValues.cleanMap(extras, "extras");
    }
}
