package dev.cairn.api.events;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.engine.events.StateChanged;

/**
 * A process's move from one state to another: the data of one event of a stream. Its
 * {@code event_id} is also the event's SSE id, which a client sends back as
 * {@code Last-Event-ID} to resume after it.
 */
@Schema(description = "A process moved from one state to another (the data of an SSE event 'state')", example = """
                {"event_id": 4182, "process": "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55",
                 "entry_point": "arithmetic.add_multiply", "caller": null, "from": "created", "to": "finished",
                 "exit_status": 0, "time": "2026-11-24T15:13:01.123456Z", "scheduler": null}""")
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
        Instant time,

        @Schema(
                description = "for a waiting calculation job whose job moved in its batch system (from and to are"
                        + " then both waiting), that move; null for every other change",
                nullable = true)
        SchedulerMove scheduler) {

    /** A job's move in its batch system, as the job's {@code scheduler_state} says it. */
    @Schema(
            name = "SchedulerMove",
            description = "A job's move in its batch system, by the values of scheduler_state",
            example = """
                    {"from": "queued", "to": "running"}""")
    record SchedulerMove(
            @Schema(
                    description = "the scheduler state recorded before; null for the first one recorded",
                    nullable = true,
                    example = "queued")
            String from,

            @Schema(
                    description = "the scheduler state now: queued, queued held, running, suspended, undetermined or"
                            + " done",
                    example = "running")
            String to) {

        static SchedulerMove of(StateChanged.SchedulerMove move) {
            return move == null ? null : new SchedulerMove(move.from(), move.to());
        }
    }
}
