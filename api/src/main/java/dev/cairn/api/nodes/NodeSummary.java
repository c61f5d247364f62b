package dev.cairn.api.nodes;

import java.time.OffsetDateTime;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A node in a list: what tells it apart at a glance. One node's whole description is {@link NodeDetails}.
 *
 * @param user the email of the user it belongs to
 */
@Schema(description = "A node in a list")
record NodeSummary(
        @Schema(example = "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55")
        UUID uuid,

        @Schema(
                description = "its primary key in this installation (short to type; the uuid is the id that"
                        + " holds everywhere)",
                example = "42")
        long pk,

        @JsonProperty("node_type") @Schema(example = "data.core.int.Int.")
        String nodeType,

        @JsonProperty("process_type") @Schema(example = "arithmetic.add", nullable = true)
        String processType,

        @Schema(example = "x") String label,
        @Schema(example = "2026-05-01T12:00:00.123456Z") OffsetDateTime ctime,
        @Schema(example = "2026-05-01T12:00:00.123456Z") OffsetDateTime mtime,
        @Schema(example = "alice@example.org") String user) {}
