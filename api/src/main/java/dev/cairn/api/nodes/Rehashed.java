package dev.cairn.api.nodes;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A node's hash computed again.
 *
 * @param previous the hash it had before
 * @param changed  whether the hash computed now differs from it (and was stored)
 */
@Schema(description = "A node's hash computed again")
record Rehashed(
        @Schema(example = "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55")
        String uuid,

        @Schema(example = "5f0c…") String hash,
        @Schema(example = "5f0c…", nullable = true) String previous,
        boolean changed) {}
