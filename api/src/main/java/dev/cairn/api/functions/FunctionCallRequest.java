package dev.cairn.api.functions;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.databind.JsonNode;

/** A call of a client's function: the function, and the inputs it is called with. */
@Schema(description = "A call of a function the client runs itself", example = """
                {"function": {"module": "analysis", "name": "rescale", "source": "def rescale(structure, factor):\
                \\n    ...\\n"}, "inputs": {"structure": {"uuid": "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55"}, "factor": \
                {"type": "float", "value": 1.02}}}""")
record FunctionCallRequest(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) FunctionIdentity function,

        @Schema(
                types = {"object"},
                nullable = true,
                description = "the inputs by parameter name (letters, digits and single underscores, starting with"
                        + " a letter): a stored data node as {\"uuid\": \"…\"}, or a new value as {\"type\":"
                        + " \"float\", \"value\": 1.02} with the types of POST /api/v1/nodes",
                example = "{\"factor\": {\"type\": \"float\", \"value\": 1.02}}")
        JsonNode inputs,

        @Schema(nullable = true, description = "the process's label", example = "rescale by 2%")
        String label,

        @JsonProperty("use_cache")
        @Schema(
                nullable = true,
                description = "take the outputs of a finished run of the same function with the same inputs;"
                        + " by default as the server's caching setting (cairn.caching) says for the process type"
                        + " python:<module>.<name>")
        Boolean useCache,

        @Schema(
                nullable = true,
                description = "the open run of a workflow function (POST /api/v1/function-runs/workflows) that calls"
                        + " this one, by uuid: linked as its caller. It must be the calling user's and not ended",
                example = "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55")
        UUID caller) {}
