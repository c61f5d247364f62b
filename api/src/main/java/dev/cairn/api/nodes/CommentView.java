package dev.cairn.api.nodes;

import java.time.OffsetDateTime;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;

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
