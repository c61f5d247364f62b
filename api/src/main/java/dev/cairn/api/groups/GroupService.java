package dev.cairn.api.groups;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.stereotype.Service;

import dev.cairn.api.groups.GroupRequests.GroupPatch;
import dev.cairn.api.groups.GroupRequests.MemberChange;
import dev.cairn.api.groups.GroupRequests.MembersChanged;
import dev.cairn.api.groups.GroupRequests.NewGroup;
import dev.cairn.api.web.Cursor;
import dev.cairn.api.web.Page;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.AttributeValues;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.groups.Group;
import dev.cairn.storage.graph.groups.GroupStore;
import dev.cairn.storage.graph.users.UserStore;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.QueryBuilder;

/**
 * Named sets of nodes, for every surface of the server: made as a user, listed and their members read a
 * page at a time, shown, changed, deleted, filled and emptied. A group is named by its uuid, or by its
 * label among the groups of its type ({@code core}: the users' own).
 */
@Service
public class GroupService {

    /** The type of the groups users make. */
    public static final String CORE = GroupStore.CORE;

    private static final Pattern UUID_FORM =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final Storage storage;
    private final GroupStore groups;
    private final UserStore users;
    private final GroupNodes nodes;

    GroupService(Storage storage, GroupNodes nodes) {
        this.storage = storage;
        this.groups = storage.groups();
        this.users = storage.users();
        this.nodes = nodes;
    }

    /** Makes an empty group as the user {@code userId}. */
    public GroupView create(NewGroup body, long userId) {
        if (body.label() == null || body.label().isBlank()) {
            throw new InvalidInputException("field 'label' is required: the group's name");
        }
        String type = body.type() == null ? GroupStore.CORE : body.type();
        Map<String, Object> extras = body.extras() == null ? Map.of() : cleanExtras(body.extras());
        return view(groups.create(body.label(), type, body.description(), userId, extras));
    }

    /** A page of the groups of one type, by label, after {@code cursor}. */
    public Page<GroupView> list(String type, String cursor, int limit) {
        String order = "label:" + type;
        String after = cursor == null
                ? null
                : (String) Cursor.decode(cursor, order).after().getFirst();
        List<Group> page = groups.list(type, after, limit + 1);
        boolean more = page.size() > limit;
        List<Group> items = more ? page.subList(0, limit) : page;
        Map<Long, Long> counts = groups.counts(items.stream().map(Group::id).toList());
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

    /** The group {@code ref} names among the groups of {@code type}. */
    public GroupView show(String ref, String type) {
        return view(find(ref, type));
    }

    /** Changes the group's label, description and extras as {@code body} says; the label first, the one change that can be refused. */
    public GroupView change(String ref, String type, GroupPatch body) {
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
        Group changed = body.label() == null ? group : groups.relabel(group.id(), body.label());
        if (body.description() != null) {
            changed = groups.describe(group.id(), body.description());
        }
        if (!extras.isEmpty() || !remove.isEmpty()) {
            changed = groups.changeExtras(group.id(), extras, remove);
        }
        return view(changed);
    }

    /** Deletes the group; its nodes stay. */
    public void delete(String ref, String type) {
        groups.delete(find(ref, type).id());
    }

    /** Adds and removes nodes (by uuid) in one transaction: both happen or neither. */
    public MembersChanged changeNodes(String ref, String type, MemberChange body) {
        Group group = find(ref, type);
        long[] add = nodes.ids("add", body.add());
        long[] remove = nodes.ids("remove", body.remove());
        GroupStore.MembershipChange change = groups.changeMembers(group.id(), NodeIds.of(add), NodeIds.of(remove));
        return new MembersChanged(change.added(), change.removed(), groups.count(group.id()));
    }

    /** A page of the group's nodes, by id, after {@code cursor}; with {@code count}, the total too. */
    public Page<MemberView> listNodes(String ref, String type, String cursor, int limit, boolean count) {
        Group group = find(ref, type);
        String order = "members:" + group.uuid();
        long after = cursor == null
                ? 0
                : ((Number) Cursor.decode(cursor, order).after().getFirst()).longValue();
        List<GroupNodes.Member> page = nodes.page(group.id(), after, limit + 1);
        boolean more = page.size() > limit;
        List<GroupNodes.Member> items = more ? page.subList(0, limit) : page;
        String next = more ? new Cursor(order, List.of(items.getLast().id())).encode() : null;
        Long total = count ? groups.count(group.id()) : null;
        return new Page<>(items.stream().map(GroupNodes.Member::view).toList(), next, total);
    }

    /**
     * The id of the group a client names without a type: by uuid, else by label, a {@code core} group's
     * first, else the one group of another type with it.
     */
    public long idOf(String ref) {
        if (UUID_FORM.matcher(ref).matches()) {
            Optional<Group> byUuid = groups.find(UUID.fromString(ref));
            if (byUuid.isPresent()) {
                return byUuid.get().id();
            }
        }
        List<Labelled> labelled = storage
                .query(QueryBuilder.start()
                        .group("g", v -> v.where(Filter.field("label").eq(ref)).project("id", "type_string"))
                        .build())
                .all()
                .stream()
                .map(r -> new Labelled((Long) r.get(0), (String) r.get(1)))
                .sorted(Comparator.comparing((Labelled l) -> !l.type().equals(GroupStore.CORE))
                        .thenComparing(Labelled::type))
                .toList();
        if (labelled.isEmpty()) {
            throw new NotFoundException("no group is labelled '" + ref + "'"
                    + (UUID_FORM.matcher(ref).matches() ? " or has that uuid" : ""));
        }
        if (labelled.size() > 1 && !GroupStore.CORE.equals(labelled.getFirst().type())) {
            throw new ConflictException("groups of the types "
                    + String.join(", ", labelled.stream().map(Labelled::type).toList()) + " are labelled '" + ref
                    + "': name the one to export by its uuid");
        }
        return labelled.getFirst().id();
    }

    /** A group with the label asked for, and its type. */
    private record Labelled(long id, String type) {}

    private Group find(String ref, String type) {
        if (UUID_FORM.matcher(ref).matches()) {
            Optional<Group> byUuid = groups.find(UUID.fromString(ref));
            if (byUuid.isPresent()) {
                return byUuid.get();
            }
        }
        return groups.find(ref, type)
                .orElseThrow(() -> new NotFoundException("no group of type '" + type + "' is labelled '" + ref + "'"
                        + (UUID_FORM.matcher(ref).matches() ? " or has that uuid" : "")));
    }

    private GroupView view(Group g) {
        return GroupView.of(g, users.get(g.userId()).email(), groups.count(g.id()));
    }

    private static Map<String, Object> cleanExtras(Map<String, Object> extras) {
        return AttributeValues.cleanMap(extras, "extras");
    }
}
