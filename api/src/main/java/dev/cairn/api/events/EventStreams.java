package dev.cairn.api.events;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.springframework.stereotype.Service;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.cairn.api.web.ProcessRefs;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * Event streams of process state changes, for the API's {@code /api/v1/events} and the web view's
 * live pages alike: every process, one process, or a call tree, resumed after an event id.
 */
@Service
public class EventStreams {

    private final EventHub hub;
    private final ProcessRefs processes;

    EventStreams(EventHub hub, ProcessRefs processes) {
        this.hub = hub;
        this.processes = processes;
    }

    /**
     * A stream of the changes of {@code process}, of the call tree of {@code tree}, or of every process
     * when both are null; after the change {@code lastEventId} (null: from now).
     */
    public SseEmitter open(String process, String tree, String lastEventId) {
        if (process != null && tree != null) {
            throw new InvalidInputException("give 'process' or 'tree', not both: 'tree' follows the process too");
        }
        StreamFilter filter;
        if (process != null) {
            filter = new StreamFilter.OneProcess(processes.id(process), process);
        } else if (tree != null) {
            filter = new StreamFilter.Tree(processes.id(tree), tree);
        } else {
            filter = new StreamFilter.All();
        }
        Long after = lastEventId(lastEventId);
        // no timeout: heartbeats find clients that went away
        SseEmitter emitter = new SseEmitter(0L);
        // held until the emitter is returned, then written and flushed on this thread: the response's
        // headers are out before the stream's own thread writes (Spring Security's header writer runs
        // as this request unwinds, and must not meet another thread's first write)
        try {
            EventStream.write(emitter, EventStream.opening(filter, after));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        hub.open(emitter, filter, after);
        return emitter;
    }

    private static Long lastEventId(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            long id = Long.parseLong(text.strip());
            if (id >= 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new InvalidInputException("'" + text + "' is not an event id: give the id of the last event received"
                + " (a whole number), or none to start from now");
    }
}
