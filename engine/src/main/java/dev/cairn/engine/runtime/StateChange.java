package dev.cairn.engine.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.cairn.engine.process.ProcessState;

/** A process moved from one state to another; broadcast for watchers once committed. */
public record StateChange(long processId, String entryPoint, ProcessState from, ProcessState to, Integer exitStatus) {

    /** The routing key watchers subscribe by: {@code state.<pid>.<state>}. */
    public String routingKey() {
        return "state." + processId + "." + to.dbValue();
    }

    /** The broadcast body. */
    public Map<String, Object> toMessage() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("process", processId);
        body.put("entryPoint", entryPoint);
        body.put("from", from.dbValue());
        body.put("to", to.dbValue());
        if (exitStatus != null) {
            body.put("exitStatus", exitStatus);
        }
        return body;
    }
}
