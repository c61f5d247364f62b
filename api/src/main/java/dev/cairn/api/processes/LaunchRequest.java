package dev.cairn.api.processes;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.databind.JsonNode;

/** One launch in JSON: what to run, with what. */
@Schema(description = "A launch: the entry point, its inputs and metadata", example = """
                {"entry_point": "arithmetic.add_multiply", "inputs": {"x": 2, "y": 3, "z": {"uuid": \
                "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55"}}, "metadata": {"use_cache": false}}""")
record LaunchRequest(
        @JsonProperty("entry_point")
        @Schema(
                description = "what to run; GET /api/v1/process-types lists them",
                example = "arithmetic.add_multiply",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String entryPoint,

        @Schema(
                types = {"object"},
                description = "the inputs by port, as the process type's inputs schema says (component"
                        + " <entry_point>.inputs): values inline ({\"x\": 2}) or stored nodes by uuid"
                        + " ({\"x\": {\"uuid\": \"…\"}}); a namespace is a nested object",
                example = "{\"x\": 2, \"y\": 3, \"z\": 4}")
        JsonNode inputs,

        @Schema(
                types = {"object"},
                description = "use_cache (true/false), and for a calculation job its options and computer"
                        + " (component <entry_point>.metadata)",
                example = "{\"use_cache\": false}")
        JsonNode metadata,

        @Schema(
                nullable = true,
                description = "the open run of a workflow function (POST /api/v1/function-runs/workflows) that"
                        + " launches this process, by uuid: linked as its caller and its parent, so that killing the run"
                        + " kills it. It must be the calling user's and not ended",
                example = "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55")
        UUID caller) {}
