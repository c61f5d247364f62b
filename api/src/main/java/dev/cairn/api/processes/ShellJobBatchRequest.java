package dev.cairn.api.processes;

import java.util.List;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/** Many shell jobs at once, all or none. */
@Schema(description = "Shell jobs to launch together: all are launched, or none")
record ShellJobBatchRequest(
        @ArraySchema(
                schema = @Schema(implementation = ShellJobRequest.class),
                arraySchema = @Schema(description = "the jobs, at most cairn.limits.batch-max (1000)"))
        List<ShellJobRequest> jobs) {}
