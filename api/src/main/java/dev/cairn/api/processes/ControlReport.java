package dev.cairn.api.processes;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

/** What a pause, play or kill by filter did, process by process. */
@Schema(description = "What a pause, play or kill by filter did, process by process")
public record ControlReport(
        @Schema(
                description = "the action",
                allowableValues = {"pause", "play", "kill"},
                example = "kill")
        String action,

        @Schema(
                description = "how many processes it acted on (matched the filter and could take the action)",
                example = "2")
        int matched,

        @Schema(description = "true: more processes match than the limit; send the request again for the next ones")
        boolean more,

        @Schema(description = "the outcome for each process, oldest first")
        List<ControlResult> results) {}
