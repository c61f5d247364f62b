package dev.cairn.api.functions;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.databind.JsonNode;

/** How an open run of a client's workflow function ended. */
@Schema(
        description = "How a workflow function the client ran ended: the stored data it returned, or what it raised",
        example = "{\"outputs\": {\"relaxed\": {\"uuid\": \"0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55\"}}}")
record WorkflowEnding(
        @Schema(
                types = {"object"},
                nullable = true,
                description = "what it returned, by output name: stored data nodes, {\"uuid\": \"…\"} (what the"
                        + " functions it called made, or its inputs), linked as its returns. None with a non-zero"
                        + " exit_status or an exception",
                example = "{\"relaxed\": {\"uuid\": \"0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55\"}}")
        JsonNode outputs,

        @JsonProperty("exit_status")
        @Schema(
                nullable = true,
                description = "0 when it succeeded; another number for a failure it reported itself",
                minimum = "0",
                maximum = "2147483647",
                defaultValue = "0")
        Integer exitStatus,

        @JsonProperty("exit_message")
        @Schema(nullable = true, description = "what the failure was", example = "no structure converged")
        String exitMessage,

        @Schema(
                nullable = true,
                description = "what it raised (its type, message and traceback): the run ends excepted",
                example = "RuntimeError: no structure converged")
        String exception)
        implements RunEnding {}
