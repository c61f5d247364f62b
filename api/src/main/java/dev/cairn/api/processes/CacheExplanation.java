package dev.cairn.api.processes;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

/** Whether a launch would take its outputs from the cache, and why. */
@Schema(description = "Whether a launch would take its outputs from the cache, and why (nothing was stored)")
record CacheExplanation(
        @JsonProperty("entry_point") @Schema(description = "what would run", example = "arithmetic.add")
        String entryPoint,

        @Schema(description = "true: a finished calculation with the same hash would be the source")
        boolean hit,

        @Schema(
                description = "the source it would use, or how its inputs differ from the nearest candidate",
                example = "miss: the nearest candidate node 9 (process.calculation.calcjob.CalcJobNode.):"
                        + " 'y' differs (3f2a91c0e4b1… here, 91c0aa17f2d3… there)")
        String explanation) {}
