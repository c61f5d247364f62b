package dev.cairn.api.functions;

import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.api.nodes.NodeDetails;
import dev.cairn.api.processes.ProcessSummary;

/** A recorded run: its process node, its outputs, and the run it was copied from when it came from the cache. */
@Schema(description = "A recorded run of a client's function")
public record FunctionRun(
        ProcessSummary process,

        @Schema(description = "its outputs by name, with their attributes")
        Map<String, NodeDetails> outputs,

        @JsonProperty("cached_from")
        @Schema(description = "the run whose outputs it took from the cache; null when it ran", nullable = true)
        UUID cachedFrom) {}
