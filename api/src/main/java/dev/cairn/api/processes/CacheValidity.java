package dev.cairn.api.processes;

import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

/** Whether a calculation may serve as a cache source. */
@Schema(description = "Whether a calculation may serve as a cache source")
record CacheValidity(
        @Schema(description = "the calculation") UUID process,

        @JsonProperty("valid_cache_source")
        @Schema(description = "false: no launch will take its outputs from it", example = "false")
        boolean validCacheSource) {}
