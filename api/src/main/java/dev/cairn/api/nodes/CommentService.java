package dev.cairn.api.nodes;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Service;

import dev.cairn.api.security.CairnPrincipal;
import dev.cairn.api.security.Role;
import dev.cairn.api.web.Cursor;
import dev.cairn.api.web.Page;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.comments.Comment;
import dev.cairn.storage.graph.comments.CommentStore;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.Order;
import dev.cairn.storage.query.QueryBuilder;
import dev.cairn.storage.query.Row;

/**
 * Comments on nodes: read a page at a time with their authors, written as a user, changed only by their
 * author or an admin ({@link #mayChange}). Each call is one statement or one transaction.
 */
@Service
public class CommentService {

    private static final String ORDER = "comments";

    private final Storage storage;
    private final CommentStore comments;
    private final NodeService nodes;

    CommentService(Storage storage, NodeService nodes) {
        this.storage = storage;
        this.comments = storage.comments();
        this.nodes = nodes;
    }

    /** A comment of a node with its author: what an edit or a deletion needs to know first. */
    public record Owned(UUID uuid, long id, long userId, String email) {}

    /** A page of the comments of the node {@code ref} names, oldest first, after {@code cursor}. */
    public Page<CommentView> list(String ref, String cursor, int limit) {
        long node = nodes.id(ref);
        QueryBuilder query = QueryBuilder.start()
                .node("n", v -> v.where(Filter.field("id").eq(node)))
                .comment("c", v -> v.withNode("n").project("uuid", "ctime", "mtime", "content", "id"))
                .user("u", v -> v.withComment("c").project("email"))
                .orderBy(Order.asc("c", "id"))
                .limit(limit + 1L);
        if (cursor != null) {
            List<Object> after = Cursor.decode(cursor, ORDER).after();
            if (after.size() != 1 || !(after.getFirst() instanceof Long id)) {
                throw new InvalidInputException("'" + cursor + "' is not a cursor this server made");
            }
            query.after(id);
        }
        List<Row> rows = storage.query(query.build()).all();
        List<CommentView> items = new ArrayList<>();
        for (int i = 0; i < Math.min(limit, rows.size()); i++) {
            Row r = rows.get(i);
            items.add(new CommentView(
                    (UUID) r.get(0), (String) r.get(5), (OffsetDateTime) r.get(1), (OffsetDateTime) r.get(2), (String)
                            r.get(3)));
        }
        String next = rows.size() > limit
                ? new Cursor(ORDER, List.of(rows.get(limit - 1).get(4))).encode()
                : null;
        return new Page<>(items, next, null);
    }

    /** Adds a comment to the node {@code ref} names, as the user {@code author}. */
    public CommentView add(String ref, CairnPrincipal author, String content) {
        long node = nodes.id(ref);
        return view(comments.add(node, author.userId(), content), author.email());
    }

    /** The comment {@code comment} of the node {@code ref} names, with its author. */
    public Owned find(String ref, UUID comment) {
        long node = nodes.id(ref);
        Row row = storage.query(QueryBuilder.start()
                        .comment(
                                "c",
                                v -> v.where(Filter.and(
                                                Filter.field("uuid").eq(comment.toString()),
                                                Filter.field("node_id").eq(node)))
                                        .project("id", "user_id"))
                        .user("u", v -> v.withComment("c").project("email"))
                        .build())
                .first()
                .orElseThrow(() -> new NotFoundException("node " + ref + " has no comment " + comment));
        return new Owned(comment, (Long) row.get(0), (Long) row.get(1), (String) row.get(2));
    }

    /** Whether {@code who} may edit or delete the comment: its author, or an admin. */
    public boolean mayChange(Owned comment, CairnPrincipal who) {
        return who.userId() == comment.userId() || who.roles().contains(Role.ADMIN);
    }

    /** Replaces the comment's text. */
    public CommentView edit(Owned comment, String content) {
        return view(comments.update(comment.id(), content), comment.email());
    }

    public void delete(Owned comment) {
        comments.remove(comment.id());
    }

    private static CommentView view(Comment c, String email) {
        return new CommentView(c.uuid(), email, c.ctime(), c.mtime(), c.content());
    }
}
