package dev.cairn.api.processes;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

/** What a pause, play or kill did to one process. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(description = "What a pause, play or kill did to one process")
public record ControlResult(
        @Schema(description = "the process") UUID process,

        @JsonProperty("entry_point") @Schema(description = "what it runs", example = "examples.sum_series")
        String entryPoint,

        @Schema(
                description = "what happened",
                allowableValues = {"paused", "played", "killed", "refused"},
                example = "killed")
        String outcome,

        @Schema(description = "why it was refused, or how it was killed", example = "it is finished")
        String detail,

        @Schema(description = "for a kill: the processes killed, this one first and then its live descendants")
        List<UUID> killed) {}
