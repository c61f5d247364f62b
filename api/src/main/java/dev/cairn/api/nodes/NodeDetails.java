package dev.cairn.api.nodes;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonRawValue;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * One node: its columns, attributes (all, or the keys asked for), extras, what its files are and
 * how many links it has each way, so a client need not fetch the links to count them.
 *
 * @param user       the email of the user it belongs to
 * @param computer   the computer of a code, remote folder or calculation job; null otherwise
 * @param hash       its hash (BLAKE2b-256, hex), by which caching finds equal calculations
 * @param attributes the attributes as stored (JSON, passed through as the database holds it)
 * @param extras     the extras as stored
 */
@Schema(description = "One node with its attributes, extras, files and link counts")
public record NodeDetails(
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
        @Schema(example = "the first addend") String description,
        @Schema(example = "2026-05-01T12:00:00.123456Z") OffsetDateTime ctime,
        @Schema(example = "2026-05-01T12:00:00.123456Z") OffsetDateTime mtime,
        @Schema(example = "alice@example.org") String user,

        @Schema(
                description = "The computer of a code, remote folder or calculation job; null for other nodes",
                nullable = true)
        ComputerRef computer,

        @Schema(example = "5f0c…", nullable = true) String hash,

        @JsonRawValue @Schema(types = "object", example = "{\"value\": 3}")
        String attributes,

        @JsonRawValue @Schema(types = "object", example = "{\"checked\": true}")
        String extras,

        Files files,
        Links links) {

    /** A computer, by uuid and label. */
    public record ComputerRef(
            UUID uuid, @Schema(example = "cluster") String label) {}

    /**
     * What the node's files are.
     *
     * @param count how many files it has, in all its folders
     * @param top   the names at the top of its file tree, files and folders
     */
    public record Files(
            @Schema(example = "2") int count,
            @Schema(example = "[\"aiida.in\", \"out\"]") List<String> top) {}

    /**
     * How many links the node has.
     *
     * @param incoming links into it (its inputs, its creator, its caller)
     * @param outgoing links out of it (what it made, used, called or returned)
     */
    public record Links(
            @Schema(example = "2") long incoming,
            @Schema(example = "1") long outgoing) {}
}
