package dev.cairn.api.processes;

import java.util.List;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/** Many launches at once, all or none. */
@Schema(description = "Launches to make together: all are launched, or none")
record BatchRequest(
        @ArraySchema(
                schema = @Schema(implementation = LaunchRequest.class),
                arraySchema = @Schema(description = "the launches, at most cairn.limits.batch-max (1000)"))
        List<LaunchRequest> launches) {}
