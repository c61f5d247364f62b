package dev.cairn.engine.internal.broker;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import dev.cairn.engine.events.ControlSignal;
import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * The wire form of broadcasts: a JSON object per message, with field names fixed here (a
 * worker of another version on the same broker must read them), and their routing keys.
 */
final class EventCodec {

    private EventCodec() {}

    /** {@code state.<pid>.<state>}: watchers bind by process, by state, or both. */
    static String routingKey(StateChanged change) {
        return "state." + change.processId() + "." + change.to().dbValue();
    }

    /** {@code control.<pid>}. */
    static String routingKey(ControlSignal signal) {
        return "control." + signal.processId();
    }

    static Map<String, Object> write(StateChanged change) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("event", change.eventId());
        body.put("process", change.processId());
        body.put("uuid", change.uuid().toString());
        if (change.callerId() != null) {
            body.put("caller", change.callerId());
        }
        body.put("entryPoint", change.entryPoint());
        body.put("from", change.from().dbValue());
        body.put("to", change.to().dbValue());
        if (change.exitStatus() != null) {
            body.put("exitStatus", change.exitStatus());
        }
        if (change.time() != null) {
            body.put("time", change.time().toString());
        }
        if (change.scheduler() != null) {
            Map<String, Object> scheduler = new LinkedHashMap<>();
            scheduler.put("from", change.scheduler().from());
            scheduler.put("to", change.scheduler().to());
            body.put("scheduler", scheduler);
        }
        return body;
    }

    static StateChanged readStateChanged(Map<String, Object> body) {
        try {
            return new StateChanged(
                    number(body, "event").longValue(),
                    number(body, "process").longValue(),
                    UUID.fromString((String) body.get("uuid")),
                    body.get("caller") == null ? null : number(body, "caller").longValue(),
                    (String) body.get("entryPoint"),
                    ProcessState.fromDbValue((String) body.get("from")),
                    ProcessState.fromDbValue((String) body.get("to")),
                    body.get("exitStatus") == null
                            ? null
                            : number(body, "exitStatus").intValue(),
                    // a worker of an older version sends no time
                    body.get("time") instanceof String time ? Instant.parse(time) : null,
                    body.get("scheduler") instanceof Map<?, ?> scheduler
                            ? new StateChanged.SchedulerMove(
                                    (String) scheduler.get("from"), (String) scheduler.get("to"))
                            : null);
        } catch (RuntimeException e) {
            throw new InvalidInputException("not a state change: " + body + " (" + e.getMessage() + ")", e);
        }
    }

    static Map<String, Object> write(ControlSignal signal) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("action", signal.action().name().toLowerCase(Locale.ROOT));
        body.put("process", signal.processId());
        return body;
    }

    static ControlSignal readControlSignal(Map<String, Object> body) {
        try {
            return new ControlSignal(
                    ControlSignal.Action.valueOf(((String) body.get("action")).toUpperCase(Locale.ROOT)),
                    number(body, "process").longValue());
        } catch (RuntimeException e) {
            throw new InvalidInputException("not a control signal: " + body + " (" + e.getMessage() + ")", e);
        }
    }

    private static Number number(Map<String, Object> body, String field) {
        if (!(body.get(field) instanceof Number n)) {
            throw new InvalidInputException("field '" + field + "' is not a number");
        }
        return n;
    }
}
