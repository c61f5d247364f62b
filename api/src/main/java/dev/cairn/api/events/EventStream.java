package dev.cairn.api.events;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter.DataWithMediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.cairn.engine.events.EventLog;

/**
 * One client's event stream. The hub offers it changes in id order, from its own thread and
 * without waiting; the stream queues them and sends them from a virtual thread of its own that
 * runs only while there is something to send (an idle stream holds no thread). Its first run
 * sends what the client missed: the stored changes after its {@code Last-Event-ID}, up to
 * where the hub stood when the stream joined; everything after comes from the queue. Ids only
 * grow, so a change is sent at most once.
 * <p>
 * A client too slow to take what comes is let go once {@value #MAX_QUEUED} changes wait for it:
 * it reconnects with its {@code Last-Event-ID} and reads the rest from the database.
 */
final class EventStream {

    static final int MAX_QUEUED = 100_000;
    private static final int REPLAY_PAGE = 1_000;
    private static final MediaType TEXT = new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8);
    private static final Object HEARTBEAT = new Object();

    /** A change sent after changes with higher ids (see {@link StateEvent#lateFrame()}). */
    private record Late(StateEvent event) {}

    private final SseEmitter emitter;
    private final StreamFilter filter;
    private final Long lastEventId;
    private final EventLog log;
    private final EventFrames frames;
    private final Executor sender;
    private final Consumer<EventStream> onClose;

    private final Queue<Object> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Where the hub stood when the stream joined: the replay ends here, the queue starts after. */
    private volatile long joinedAt;

    // confined to the sending thread (one at a time, handed over through `scheduled`)
    private boolean opened;
    private long lastSent;
    private Set<Long> members;

    /**
     * @param lastEventId the last change the client has, or null: only changes from now on
     * @param onClose     takes the stream out of the hub
     */
    EventStream(
            SseEmitter emitter,
            StreamFilter filter,
            Long lastEventId,
            EventLog log,
            EventFrames frames,
            Executor sender,
            Consumer<EventStream> onClose) {
        this.emitter = emitter;
        this.filter = filter;
        this.lastEventId = lastEventId;
        this.log = log;
        this.frames = frames;
        this.sender = sender;
        this.onClose = onClose;
        emitter.onCompletion(this::close);
        emitter.onTimeout(this::close);
        emitter.onError(e -> close());
    }

    StreamFilter filter() {
        return filter;
    }

    /** Called by the hub, under its lock, as the stream joins: live changes start after {@code horizon}. */
    void joined(long horizon) {
        joinedAt = horizon;
        lastSent = lastEventId == null ? horizon : lastEventId;
        schedule();
    }

    /** A change in id order; a late one is sent without its id. Never blocks. */
    void offer(StateEvent event, boolean late) {
        enqueue(late ? new Late(event) : event);
    }

    /** A comment, so that proxies keep an idle stream open and a dead client is found. */
    void heartbeat() {
        enqueue(HEARTBEAT);
    }

    private void enqueue(Object item) {
        if (closed.get()) {
            return;
        }
        if (queued.incrementAndGet() > MAX_QUEUED) {
            // the client reads too slowly: let it go; it resumes from the database
            close();
            return;
        }
        queue.add(item);
        schedule();
    }

    private void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            try {
                sender.execute(this::drain);
            } catch (RuntimeException e) {
                // the server is stopping
                close();
            }
        }
    }

    private void drain() {
        while (true) {
            try {
                if (!opened) {
                    opened = true;
                    open();
                }
                Object item;
                while (!closed.get() && (item = queue.poll()) != null) {
                    queued.decrementAndGet();
                    send(item);
                }
            } catch (IOException | RuntimeException e) {
                // the client went away, or the response is done: nothing more to send
                close();
            }
            scheduled.set(false);
            if (closed.get() || queue.isEmpty() || !scheduled.compareAndSet(false, true)) {
                return;
            }
        }
    }

    /**
     * The comment that opens a stream: what it follows. The controller sends it before the
     * response leaves the request's thread, so that the servlet container and the filters
     * after the controller (which write headers) are done with the response before any other
     * thread writes to it.
     */
    static String opening(StreamFilter filter, Long lastEventId) {
        return ": " + filter + (lastEventId == null ? ", from now on" : ", after event " + lastEventId)
                + "\nretry: 2000\n\n";
    }

    /** Sends what the client missed. */
    private void open() throws IOException {
        if (filter instanceof StreamFilter.Tree tree) {
            // read after joining: every process created since is found by its caller's membership
            members = new HashSet<>(log.tree(tree.rootId()));
        }
        if (lastEventId == null) {
            return;
        }
        long after = lastEventId;
        while (after < joinedAt && !closed.get()) {
            List<EventLog.Row> rows = switch (filter) {
                case StreamFilter.All a -> log.between(after, joinedAt, REPLAY_PAGE);
                case StreamFilter.OneProcess p -> log.ofProcesses(List.of(p.processId()), after, joinedAt, REPLAY_PAGE);
                case StreamFilter.Tree t -> log.ofProcesses(members, after, joinedAt, REPLAY_PAGE);
            };
            for (EventLog.Row row : rows) {
                write(frames.of(row).frame());
                lastSent = row.id();
            }
            if (rows.size() < REPLAY_PAGE) {
                break;
            }
            after = rows.getLast().id();
        }
        lastSent = Math.max(lastSent, joinedAt);
    }

    private void send(Object item) throws IOException {
        switch (item) {
            case StateEvent e -> {
                // ids only grow; one at or below what was sent (or replayed) was sent already
                if (e.id() > lastSent && follows(e)) {
                    write(e.frame());
                    lastSent = e.id();
                }
            }
            case Late l -> {
                if (follows(l.event())) {
                    write(l.event().lateFrame());
                }
            }
            default -> write(": keep-alive\n\n");
        }
    }

    private boolean follows(StateEvent e) {
        return switch (filter) {
            case StreamFilter.All a -> true;
            case StreamFilter.OneProcess p -> p.processId() == e.processId();
            case StreamFilter.Tree t -> {
                if (members.contains(e.processId())) {
                    yield true;
                }
                // changes come in id order: a caller's first change precedes those of what it calls
                if (e.callerId() != null && members.contains(e.callerId())) {
                    members.add(e.processId());
                    yield true;
                }
                yield false;
            }
        };
    }

    private void write(String frame) throws IOException {
        write(emitter, frame);
    }

    static void write(SseEmitter emitter, String frame) throws IOException {
        emitter.send(Set.of(new DataWithMediaType(frame, TEXT)));
    }

    /** Ends the stream (the client went, the server stops, or it fell too far behind). */
    void close() {
        if (closed.compareAndSet(false, true)) {
            onClose.accept(this);
            try {
                emitter.complete();
            } catch (RuntimeException ignored) {
                // completed already
            }
        }
    }
}
