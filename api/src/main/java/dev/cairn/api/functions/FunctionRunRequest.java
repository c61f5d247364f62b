package dev.cairn.api.functions;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.databind.JsonNode;

/** A call of a client's function that ran, and how it ended. */
@Schema(
        description = "A run of a function the client ran itself: the call, and what it returned or raised",
        example = """
                {"call": {"function": {"module": "analysis", "name": "mean"}, "inputs": {"values": {"type": "list",\
                 "value": [1, 2, 3]}}}, "outputs": {"result": {"type": "float", "value": 2.0}}}""")
record FunctionRunRequest(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) FunctionCallRequest call,

        @Schema(
                types = {"object"},
                nullable = true,
                description = "what it returned, by output name (as the inputs' names): each a new value, {\"type\":"
                        + " \"float\", \"value\": 2.0}; a calculation creates its outputs, so a stored node is"
                        + " refused. None with a non-zero exit_status or an exception",
                example = "{\"result\": {\"type\": \"float\", \"value\": 2.0}}")
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
        @Schema(nullable = true, description = "what the failure was", example = "the structure has no atoms")
        String exitMessage,

        @Schema(
                nullable = true,
                description = "what it raised (its type, message and traceback): the run is recorded as excepted,"
                        + " with no outputs",
                example = "ZeroDivisionError: division by zero")
        String exception)
        implements RunEnding {}
