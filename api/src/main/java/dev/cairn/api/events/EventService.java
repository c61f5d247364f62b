package dev.cairn.api.events;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.springframework.stereotype.Service;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.cairn.api.web.ProcessRefs;
import dev.cairn.errors.InvalidInputException;

/**
 * Live process state changes for every surface of the server: a stream of Server-Sent Events of every
 * change, of one process, or of a process and all it calls, resumed after the last change a client got
 * (the gap filled from the database) and then fed by the {@link EventHub} as changes commit.
 */
@Service
public class EventService {

    private final EventHub hub;
    private final ProcessRefs processes;

    EventService(EventHub hub, ProcessRefs processes) {
        this.hub = hub;
        this.processes = processes;
    }

    /**
     * A new stream, opened: of the process {@code process} names, or of the tree of the process {@code tree}
     * names, or (both null) of every process; after the change whose id {@code lastEventId} gives (what an
     * SSE client sends as {@code Last-Event-ID}; null or blank: from now on).
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
        // held until the emitter is returned, then written and flushed on the request's thread: the
        // response's headers are out before the stream's own thread writes (Spring Security's header writer
        // runs as the request unwinds, and must not meet another thread's first write)
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
