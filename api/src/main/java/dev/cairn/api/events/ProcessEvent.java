package dev.cairn.api.events;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A process's move from one state to another: the data of one event of a stream. Its
 * {@code event_id} is also the event's SSE id, which a client sends back as
 * {@code Last-Event-ID} to resume after it.
 */
@Schema(description = "A process moved from one state to another (the data of an SSE event 'state')", example = """
                {"event_id": 4182, "process": "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55",
                 "entry_point": "arithmetic.add_multiply", "caller": null, "from": "created", "to": "finished",
                 "exit_status": 0, "time": "2026-11-24T15:13:01.123456Z"}""")
record ProcessEvent(
        @JsonProperty("event_id")
        @Schema(description = "the change's id: ascending, and the SSE id to resume after", example = "4182")
        long eventId,

        @Schema(description = "the process's uuid") UUID process,

        @JsonProperty("entry_point") @Schema(description = "what ran", example = "arithmetic.add_multiply")
        String entryPoint,

        @Schema(description = "the uuid of the process that called it; null for a top-level process", nullable = true)
        UUID caller,

        @Schema(description = "the state left", example = "created")
        String from,

        @Schema(description = "the state entered: waiting, finished, excepted or killed", example = "finished")
        String to,

        @JsonProperty("exit_status")
        @Schema(description = "the exit status of a process that finished; else null", nullable = true)
        Integer exitStatus,

        @Schema(description = "when the change was written, as the step that made it ended")
        Instant time) {}
