package dev.cairn.api.processes;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

/** What a cleaning of working folders did, job by job. */
@Schema(description = "What a cleaning of calculation jobs' working folders did, job by job")
public record WorkdirReport(
        @JsonProperty("dry_run") @Schema(description = "true: nothing was removed; 'would clean' says what would be")
        boolean dryRun,

        @Schema(description = "how many folders were removed (or would be, in a dry run)", example = "12")
        int cleaned,

        @Schema(description = "how many could not be removed: each says why", example = "0")
        int failed,

        @Schema(description = "the calculation jobs of the processes the filter matched, by id")
        List<Job> jobs) {

    /** One calculation job's folder, and what became of it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(description = "A calculation job's working folder and what became of it")
    public record Job(
            @Schema(description = "the calculation job") UUID process,

            @Schema(description = "the computer it ran on", example = "cluster")
            String computer,

            @Schema(description = "its working folder there", example = "/scratch/cairn/55/60/0190c1a2-…")
            String path,

            @Schema(
                    description = "what happened",
                    allowableValues = {"cleaned", "would clean", "skipped", "failed"},
                    example = "cleaned")
            String outcome,

            @Schema(description = "why it was skipped or failed", example = "it is waiting")
            String detail) {}
}
