package dev.cairn.api.processes;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;

/** The processes a batch launched, in the order of its launches. */
@Schema(description = "The processes launched, in the order of the launches")
record BatchResponse(
        @Schema(description = "how many", example = "1000") int count,

        @Schema(description = "the processes, each created and on its way to a worker")
        List<ProcessSummary> processes) {}
