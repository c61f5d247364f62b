package dev.cairn.api.processes;

import java.time.OffsetDateTime;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

/** A log record of a process of a call tree. */
@Schema(description = "A log record of a process")
public record ReportEntry(
        @Schema(description = "when it was written") OffsetDateTime time,

        @Schema(description = "its level", example = "REPORT")
        String level,

        @Schema(description = "the process that wrote it") UUID process,

        @JsonProperty("process_pk") @Schema(description = "that process's PK", example = "42")
        long processPk,

        @JsonProperty("entry_point") @Schema(description = "what that process runs", example = "examples.sum_series")
        String entryPoint,

        @Schema(description = "the message", example = "submitted terms 0 to 9")
        String message) {}
