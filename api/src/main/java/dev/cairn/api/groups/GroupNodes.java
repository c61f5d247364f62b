package dev.cairn.api.groups;

import java.time.OffsetDateTime;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.Order;
import dev.cairn.storage.query.QueryBuilder;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.views.NodeViews;

/** The nodes of groups as the API names them: uuids resolved to ids, and members read a page at a time. */
@Component
class GroupNodes {

    /** How many unknown uuids a refusal names. */
    private static final int NAMED = 10;

    private final Storage storage;
    private final NodeViews views;

    GroupNodes(Storage storage) {
        this.storage = storage;
        this.views = storage.nodes();
    }

    /**
     * The ids of the nodes with these uuids, in one query.
     *
     * @param field the request's field, for the message
     * @throws InvalidInputException naming (up to ten of) the uuids no node has
     */
    long[] ids(String field, List<UUID> uuids) {
        if (uuids == null || uuids.isEmpty()) {
            return new long[0];
        }
        if (uuids.stream().anyMatch(Objects::isNull)) {
            throw new InvalidInputException("field '" + field + "': null is not a node's uuid; nothing was changed");
        }
        Set<UUID> wanted = new LinkedHashSet<>(uuids);
        Map<UUID, Long> found = views.idsOf(wanted);
        List<UUID> missing = wanted.stream().filter(u -> !found.containsKey(u)).toList();
        if (!missing.isEmpty()) {
            throw new InvalidInputException("field '" + field + "': " + missing.size() + " of the " + wanted.size()
                    + " nodes do not exist: "
                    + String.join(
                            ", ",
                            missing.stream().limit(NAMED).map(UUID::toString).toList())
                    + (missing.size() > NAMED ? ", ..." : "") + "; nothing was changed");
        }
        return wanted.stream().mapToLong(found::get).toArray();
    }

    /** A page of a group's members, by node id, after {@code afterId}; each with its id for the cursor. */
    List<Member> page(long groupId, long afterId, int limit) {
        QuerySpec members = QueryBuilder.start()
                .group("g", v -> v.where(Filter.field("id").eq(groupId)))
                .node("n", v -> v.withGroup("g").project("id", "uuid", "node_type", "process_type", "label", "ctime"))
                .orderBy(Order.asc("n", "id"))
                .after(afterId)
                .limit(limit)
                .build();
        return storage.query(members).all().stream()
                .map(r -> new Member(
                        (Long) r.get(0),
                        new MemberView(
                                (UUID) r.get(1),
                                (String) r.get(2),
                                (String) r.get(3),
                                (String) r.get(4),
                                (OffsetDateTime) r.get(5))))
                .toList();
    }

    /** A member and its id, which the cursor of the next page carries. */
    record Member(long id, MemberView view) {}
}
