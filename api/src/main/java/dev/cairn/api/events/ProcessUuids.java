package dev.cairn.api.events;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import dev.cairn.engine.events.EventLog;

/**
 * The uuids of processes by node id, for the caller of a broadcast change (which names it by id): those
 * seen in broadcasts, and those read from the graph once, the most recently used kept up to a bound.
 */
final class ProcessUuids {

    private static final int MAX = 100_000;

    private final EventLog log;
    private final Map<Long, UUID> known = Collections.synchronizedMap(new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, UUID> eldest) {
            return size() > MAX;
        }
    });

    ProcessUuids(EventLog log) {
        this.log = log;
    }

    /** Remembers a process a broadcast named. */
    void seen(long processId, UUID uuid) {
        known.put(processId, uuid);
    }

    /** The uuid of the process with this id, or null for none (or no id). */
    UUID of(Long processId) {
        if (processId == null) {
            return null;
        }
        UUID uuid = known.get(processId);
        if (uuid == null) {
            uuid = log.uuid(processId);
            if (uuid != null) {
                known.put(processId, uuid);
            }
        }
        return uuid;
    }
}
