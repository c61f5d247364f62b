package dev.cairn.api.events;

import java.time.Instant;
import java.util.UUID;

import tools.jackson.databind.json.JsonMapper;

import dev.cairn.engine.events.EventLog;
import dev.cairn.engine.events.StateChanged;

/** Renders state changes, broadcast or stored, as the same SSE events. */
final class EventFrames {

    private final JsonMapper json;

    EventFrames(JsonMapper json) {
        this.json = json;
    }

    /** A stored change. */
    StateEvent of(EventLog.Row row) {
        return render(
                row.processId(),
                row.callerId(),
                new ProcessEvent(
                        row.id(),
                        row.process(),
                        row.entryPoint(),
                        row.caller(),
                        row.from(),
                        row.to(),
                        row.exitStatus(),
                        row.time().toInstant(),
                        ProcessEvent.SchedulerMove.of(row.scheduler())));
    }

    /**
     * A broadcast change; {@code caller} is its caller's uuid. A sender of an older version gives
     * no time: the time it arrived stands in.
     */
    StateEvent of(StateChanged change, UUID caller) {
        return render(
                change.processId(),
                change.callerId(),
                new ProcessEvent(
                        change.eventId(),
                        change.uuid(),
                        change.entryPoint(),
                        caller,
                        change.from().dbValue(),
                        change.to().dbValue(),
                        change.exitStatus(),
                        change.time() != null ? change.time() : Instant.now(),
                        ProcessEvent.SchedulerMove.of(change.scheduler())));
    }

    private StateEvent render(long processId, Long callerId, ProcessEvent event) {
        return StateEvent.of(event.eventId(), processId, callerId, json.writeValueAsString(event));
    }
}
