package dev.cairn.api.nodes;

import java.net.URI;
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
import dev.cairn.api.security.CurrentUser;
import dev.cairn.api.web.Page;
import dev.cairn.api.web.Paging;
import dev.cairn.api.web.Problems;
import dev.cairn.storage.errors.InvalidInputException;

/** Comments on a node: read by anyone who reads, written as the request's user, changed only by their author. */
@RestController
@RequestMapping("/api/v1/nodes/{ref}/comments")
@Tag(name = "nodes")
class CommentsController {

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

    private final CommentService comments;
    private final int pageMax;

    CommentsController(CommentService comments, CairnProperties properties) {
        this.comments = comments;
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
        return Paging.response(comments.list(ref, cursor, Paging.limit(limit, pageMax)));
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
        CommentView c = comments.add(ref, CurrentUser.principal(), content);
        return ResponseEntity.created(URI.create(request.getRequestURI() + "/" + c.uuid()))
                .body(c);
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
        CommentService.Owned owned = comments.find(ref, comment);
        if (!comments.mayChange(owned, CurrentUser.principal())) {
            return refusal(owned, "edit");
        }
        return ResponseEntity.ok(comments.edit(owned, content));
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
        CommentService.Owned owned = comments.find(ref, comment);
        if (!comments.mayChange(owned, CurrentUser.principal())) {
            return refusal(owned, "delete");
        }
        comments.delete(owned);
        return ResponseEntity.noContent().build();
    }

    private static ResponseEntity<?> refusal(CommentService.Owned comment, String what) {
        return ResponseEntity.status(Problems.FORBIDDEN.status())
                .body(Problems.FORBIDDEN.with("comment " + comment.uuid() + " is " + comment.email()
                        + "'s: only its author or an admin may " + what + " it"));
    }
}
