package dev.cairn.api.functions;

import io.swagger.v3.oas.annotations.media.Schema;

/** Whether a call was served from the cache, and the run it was recorded as when it was. */
@Schema(description = "The answer to a call looked up in the cache")
public record FunctionReuse(
        @Schema(description = "true when a finished run gave the outputs: the call is recorded as its copy")
        boolean hit,

        @Schema(description = "the copy, when hit; null otherwise, and nothing was stored", nullable = true)
        FunctionRun run,

        @Schema(
                description = "whether the cache is looked in for calls of this function as this one asked (its"
                        + " use_cache, or the server's cairn.caching for its process type). When false, no such"
                        + " call is served from the cache while the server's settings stay as they are: a client"
                        + " may record its calls without asking")
        boolean caching) {}
