package dev.cairn.api.nodes;

import java.net.URI;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.api.security.CairnPrincipal;
import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.security.Role;
import dev.cairn.api.web.Cursor;
import dev.cairn.api.web.Page;
import dev.cairn.api.web.Paging;
import dev.cairn.api.web.Problems;
import dev.cairn.engine.Engine;
import dev.cairn.errors.InvalidInputException;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.graph.comments.Comment;
import dev.cairn.storage.graph.comments.CommentStore;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.GraphQuery;
import dev.cairn.storage.query.Order;
import dev.cairn.storage.query.QueryBuilder;
import dev.cairn.storage.query.Row;

/** Comments on a node: read by anyone who reads, written as the request's user, changed only by their author. */
@RestController
@RequestMapping("/api/v1/nodes/{ref}/comments")
@Tag(name = "nodes")
class CommentsController {

    /** A comment as the API shows it. */
    @Schema(name = "Comment", description = "A user's note on a node")
    record CommentView(
            @Schema(example = "5b0e6f3c-8d7a-4c55-9e0f-3a2b1c4d5e6f")
            UUID uuid,

            @Schema(example = "alice@example.org") String user,
            OffsetDateTime ctime,
            OffsetDateTime mtime,

            @Schema(example = "converged, but check the k-points")
            String content) {}

    /** What a client writes. */
    @Schema(name = "CommentContent", description = "The text of a comment")
    record CommentBody(
            @Schema(example = "converged, but check the k-points")
            String content) {

        String checked() {
            if (content == null || content.isBlank()) {
                throw new InvalidInputException("field 'content' is required: the comment's text");
            }
            return content;
        }
    }

    private static final String ORDER = "comments";

    private final NodeReader reader;
    private final Engine engine;
    private final CommentStore comments;
    private final int pageMax;

    CommentsController(NodeReader reader, Engine engine, CairnProperties properties) {
        this.reader = reader;
        this.engine = engine;
        this.comments = new CommentStore(engine.database());
        this.pageMax = properties.limits().pageMax();
    }

    @GetMapping
    @Operation(
            operationId = "listComments",
            summary = "A node's comments",
            description = "Oldest first, a page at a time.")
    ResponseEntity<Page<CommentView>> list(
            @Parameter(description = NodesController.REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @Parameter(description = NodeParams.LIMIT) @RequestParam(name = "limit", required = false) Integer limit,
            @Parameter(description = NodeParams.CURSOR) @RequestParam(name = "cursor", required = false)
                    String cursor) {
        int size = Paging.limit(limit, pageMax);
        long node = reader.id(ref);
        QueryBuilder query = QueryBuilder.start()
                .node("n", v -> v.where(Filter.field("id").eq(node)))
                .comment("c", v -> v.withNode("n").project("uuid", "ctime", "mtime", "content", "id"))
                .user("u", v -> v.withComment("c").project("email"))
                .orderBy(Order.asc("c", "id"))
                .limit(size + 1L);
        if (cursor != null) {
            List<Object> after = Cursor.decode(cursor, ORDER).after();
            if (after.size() != 1 || !(after.getFirst() instanceof Long id)) {
                throw new InvalidInputException("'" + cursor + "' is not a cursor this server made");
            }
            query.after(id);
        }
        List<Row> rows = GraphQuery.on(engine.database(), query.build()).all();
        List<CommentView> items = new ArrayList<>();
        for (int i = 0; i < Math.min(size, rows.size()); i++) {
            Row r = rows.get(i);
            items.add(new CommentView(
                    (UUID) r.get(0), (String) r.get(5), (OffsetDateTime) r.get(1), (OffsetDateTime) r.get(2), (String)
                            r.get(3)));
        }
        String next = rows.size() > size
                ? new Cursor(ORDER, List.of(rows.get(size - 1).get(4))).encode()
                : null;
        return Paging.response(new Page<>(items, next, null));
    }

    @PostMapping(consumes = "application/json")
    @Operation(
            operationId = "addComment",
            summary = "Comment on a node",
            description = "The comment is the request's user's.")
    @ApiResponse(responseCode = "201", description = "The comment, at the Location header")
    ResponseEntity<CommentView> add(
            @Parameter(description = NodesController.REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @RequestBody CommentBody body,
            @Parameter(hidden = true) HttpServletRequest request) {
        String content = body.checked();
        long node = reader.id(ref);
        CairnPrincipal me = CurrentUser.principal();
        Comment c = comments.add(node, me.userId(), content);
        return ResponseEntity.created(URI.create(request.getRequestURI() + "/" + c.uuid()))
                .body(view(c, me.email()));
    }

    @PutMapping(path = "/{comment}", consumes = "application/json")
    @Operation(
            operationId = "editComment",
            summary = "Edit a comment",
            description = "Only its author (or an admin) may.")
    @ApiResponse(responseCode = "200", description = "The comment as edited")
    @ApiResponse(
            responseCode = "403",
            description = "The comment is another user's",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<?> edit(
            @Parameter(description = NodesController.REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @Parameter(description = "The comment's uuid") @PathVariable("comment") UUID comment,
            @RequestBody CommentBody body) {
        String content = body.checked();
        Owned owned = find(ref, comment);
        if (!owned.mayChange()) {
            return owned.refusal("edit");
        }
        return ResponseEntity.ok(view(comments.update(owned.id(), content), owned.email()));
    }

    @DeleteMapping("/{comment}")
    @Operation(
            operationId = "deleteComment",
            summary = "Delete a comment",
            description = "Only its author (or an admin) may.")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @ApiResponse(
            responseCode = "403",
            description = "The comment is another user's",
            content = @Content(mediaType = "application/problem+json"))
    ResponseEntity<?> delete(
            @Parameter(description = NodesController.REF, example = "0190c1a2") @PathVariable("ref") String ref,
            @Parameter(description = "The comment's uuid") @PathVariable("comment") UUID comment) {
        Owned owned = find(ref, comment);
        if (!owned.mayChange()) {
            return owned.refusal("delete");
        }
        comments.remove(owned.id());
        return ResponseEntity.noContent().build();
    }

    /** A comment of the node, with its author. */
    private record Owned(UUID uuid, long id, long userId, String email) {

        boolean mayChange() {
            CairnPrincipal me = CurrentUser.principal();
            return me.userId() == userId || me.roles().contains(Role.ADMIN);
        }

        ResponseEntity<?> refusal(String what) {
            return ResponseEntity.status(Problems.FORBIDDEN.status())
                    .body(Problems.FORBIDDEN.with("comment " + uuid + " is " + email + "'s: only its author or an admin"
                            + " may " + what + " it"));
        }
    }

    private Owned find(String ref, UUID comment) {
        long node = reader.id(ref);
        Row row = GraphQuery.on(
                        engine.database(),
                        QueryBuilder.start()
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

    private static CommentView view(Comment c, String email) {
        return new CommentView(c.uuid(), email, c.ctime(), c.mtime(), c.content());
    }
}
