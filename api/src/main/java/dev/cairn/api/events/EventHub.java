package dev.cairn.api.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SequencedSet;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.engine.Engine;
import dev.cairn.engine.events.EventFilter;
import dev.cairn.engine.events.EventLog;
import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.events.Subscription;
import dev.cairn.storage.errors.UnavailableException;

/**
 * Hands every process state change to the event streams that follow it, exactly once and in
 * id order, so that a stream's last id says all it has: a client that reconnects with it
 * misses nothing and gets nothing twice.
 * <p>
 * One subscription to the engine's broadcasts serves every stream of this server. Broadcasts
 * are not durable and do not come in id order (steps commit in another order than the one
 * they took their ids in, and several workers publish), so the hub keeps a <em>horizon</em>:
 * every change up to it was handed on, or never committed. A broadcast just past the horizon
 * goes out at once; one further on waits for the ids before it. Those are read from
 * {@code process_event}; an id not found there belongs to a step that has not committed yet,
 * or to one rolled back. The hub asks PostgreSQL which transactions are writing to the table,
 * waits until those have ended, reads once more, and goes past the ids still missing: they
 * will never come. The table is also polled every second, for broadcasts lost on the way
 * (the broker restarting), and so that a change made without a broker reaches streams.
 * <p>
 * This rests on ids being drawn in the order steps write their changes: the table's identity
 * sequence must keep PostgreSQL's default cache of 1 (with a larger cache, each session would
 * draw from a block of its own).
 * <p>
 * The hub follows the broadcasts only while streams are open, and for {@code cairn.events.linger}
 * (30 s) after the last one closed: a server no client watches spends nothing on the state changes of the workers
 * (following them took a fifth of an API server's CPU while a worker beside it ran work chains).
 * The first stream to open finds the horizon anew, as the hub did when it started following:
 * everything committed then, once the writers of lower ids have ended.
 */
@Component
class EventHub implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(EventHub.class);
    private static final int PAGE = 1_000;
    private static final Duration POLL = Duration.ofSeconds(1);
    /** How long a gap waits for the broadcast that fills it before the table is read. */
    private static final long GAP_GRACE_MS = 5;

    private static final int MAX_SKIPPED = 10_000;

    private final Engine engine;
    private final EventLog log;
    private final EventFrames frames;
    private final CairnProperties properties;

    private final Object lock = new Object();
    // guarded by lock
    private long horizon = -1;
    private long finalUpTo;
    private final TreeMap<Long, StateEvent> pending = new TreeMap<>();
    private final SequencedSet<Long> skipped = new LinkedHashSet<>();
    private final Map<Long, List<EventStream>> byProcess = new HashMap<>();
    private final List<EventStream> broad = new ArrayList<>();
    /** The broadcasts followed, or null while no stream is open (nor was for the linger). */
    private Subscription subscription;
    /** Whether the hub follows without the broker (it was away): the table alone, read each second. */
    private boolean withoutBroker;
    /** When the last stream closed (System.nanoTime), or 0 while streams are open. */
    private long idleSince;

    /** Process uuids by node id, for the caller of a broadcast change (which names it by id). */
    private final ProcessUuids uuids;

    private final AtomicBoolean catchUpScheduled = new AtomicBoolean();
    private volatile ScheduledExecutorService sequencer;
    private volatile ScheduledExecutorService heartbeats;
    private volatile ExecutorService senders;

    EventHub(Engine engine, JsonMapper json, CairnProperties properties) {
        this.engine = engine;
        this.log = engine.eventLog();
        this.uuids = new ProcessUuids(log);
        this.frames = new EventFrames(json);
        this.properties = properties;
    }

    // --- the streams

    /**
     * A new stream of {@code filter}, for a client that has every change up to
     * {@code lastEventId} (null: a client that wants only what happens from now on).
     */
    EventStream open(SseEmitter emitter, StreamFilter filter, Long lastEventId) {
        ExecutorService executor = senders;
        if (executor == null) {
            throw new UnavailableException("event streams are not served yet: the server is starting or stopping");
        }
        EventStream stream = new EventStream(emitter, filter, lastEventId, log, frames, executor, this::remove);
        synchronized (lock) {
            follow();
            idleSince = 0;
            if (filter instanceof StreamFilter.OneProcess p) {
                byProcess
                        .computeIfAbsent(p.processId(), k -> new ArrayList<>(1))
                        .add(stream);
            } else {
                broad.add(stream);
            }
            stream.joined(horizon);
        }
        return stream;
    }

    /** Whether the hub follows the broadcasts (a stream is open, or was within the linger). */
    boolean following() {
        synchronized (lock) {
            return subscription != null;
        }
    }

    private void remove(EventStream stream) {
        synchronized (lock) {
            if (stream.filter() instanceof StreamFilter.OneProcess p) {
                List<EventStream> streams = byProcess.get(p.processId());
                if (streams != null) {
                    streams.remove(stream);
                    if (streams.isEmpty()) {
                        byProcess.remove(p.processId());
                    }
                }
            } else {
                broad.remove(stream);
            }
            if (byProcess.isEmpty() && broad.isEmpty()) {
                idleSince = System.nanoTime();
            }
        }
    }

    /**
     * Starts following the broadcasts, if the hub does not, at a new horizon: everything committed now,
     * once the writers of lower ids have ended. Under the lock, so broadcasts wait until it is set. A
     * broker that is away leaves the hub reading the table each second, and asking the broker again.
     */
    private void follow() {
        if (subscription != null) {
            return;
        }
        subscribe();
        long start = startingHorizon();
        horizon = start;
        finalUpTo = start;
        pending.headMap(start, true).clear();
        skipped.clear();
        drain();
    }

    /** Subscribes to the broadcasts; without the broker, follows the table alone. Under the lock. */
    private void subscribe() {
        try {
            subscription = engine.subscribe(EventFilter.all(), this::onBroadcast);
            withoutBroker = false;
        } catch (RuntimeException e) {
            if (!withoutBroker) {
                LOG.warn(
                        "state changes are read from the table each second: the broker did not take the hub's"
                                + " subscription ({})",
                        e.getMessage());
            }
            subscription = () -> {};
            withoutBroker = true;
        }
    }

    /** The last change committed now, once the transactions writing lower ids have ended. */
    private long startingHorizon() {
        long start = log.maxId();
        try {
            log.awaitWriters(properties.events().gapWait());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return start;
    }

    /**
     * Stops following once no stream was open for the linger, and asks a broker that was away for the
     * subscription again. On the sequencer thread.
     */
    private void stopFollowingWhenIdle() {
        synchronized (lock) {
            if (subscription != null && withoutBroker) {
                subscribe();
            }
            if (subscription == null
                    || idleSince == 0
                    || System.nanoTime() - idleSince
                            < properties.events().linger().toNanos()) {
                return;
            }
            subscription.close();
            subscription = null;
            pending.clear();
            skipped.clear();
        }
    }

    private List<EventStream> allStreams() {
        synchronized (lock) {
            List<EventStream> all = new ArrayList<>(broad);
            byProcess.values().forEach(all::addAll);
            return all;
        }
    }

    // --- changes coming in

    private void onBroadcast(StateChanged change) {
        synchronized (lock) {
            if (subscription == null) {
                return; // delivered after the hub stopped following
            }
        }
        uuids.seen(change.processId(), change.uuid());
        StateEvent event = frames.of(change, uuids.of(change.callerId()));
        synchronized (lock) {
            if (subscription == null) {
                return;
            }
            if (event.id() <= horizon) {
                if (skipped.remove(event.id())) {
                    dispatch(event, true);
                }
                return;
            }
            pending.put(event.id(), event);
            drain();
            if (pending.isEmpty()) {
                return;
            }
        }
        if (catchUpScheduled.compareAndSet(false, true)) {
            try {
                sequencer.schedule(this::catchUp, GAP_GRACE_MS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopping) {
                // the hub is stopping
            }
        }
    }

    /**
     * Hands on the pending changes that are next in id order: those with no id before them that
     * is neither handed on nor known final. Under the lock.
     */
    private void drain() {
        while (!pending.isEmpty()) {
            long next = pending.firstKey();
            if (next - 1 > Math.max(horizon, finalUpTo)) {
                break; // a gap: ids before it may still commit
            }
            dispatch(pending.pollFirstEntry().getValue(), false);
            horizon = next;
        }
        // ids known final and not pending never committed: go past them
        long firstPending = pending.isEmpty() ? Long.MAX_VALUE : pending.firstKey();
        horizon = Math.max(horizon, Math.min(finalUpTo, firstPending - 1));
    }

    /** Under the lock. */
    private void dispatch(StateEvent event, boolean late) {
        List<EventStream> followers = byProcess.get(event.processId());
        if (followers != null) {
            for (EventStream s : followers) {
                s.offer(event, late);
            }
        }
        for (EventStream s : broad) {
            s.offer(event, late);
        }
    }

    /**
     * Reads what the broadcasts did not bring: the changes committed after the horizon, up to the
     * last pending one (or all of them, when polling). Where ids are still missing, waits for the
     * transactions writing to the table to end, reads again, and goes past what is still missing.
     * Runs on the sequencer thread only.
     */
    private void catchUp() {
        catchUpScheduled.set(false);
        try {
            long target;
            synchronized (lock) {
                if (subscription == null) {
                    return; // no stream to hand anything to
                }
                target = pending.isEmpty() ? Long.MAX_VALUE : pending.lastKey();
            }
            readUpTo(target);
            synchronized (lock) {
                if (pending.isEmpty()) {
                    return;
                }
                target = pending.lastKey();
            }
            // ids below target are missing: taken by steps that have not committed, or rolled back
            boolean timedOut = !log.awaitWriters(properties.events().gapWait());
            readUpTo(target);
            synchronized (lock) {
                if (timedOut) {
                    for (long id = horizon + 1; id < target; id++) {
                        if (!pending.containsKey(id)) {
                            skipped.add(id);
                        }
                    }
                    while (skipped.size() > MAX_SKIPPED) {
                        skipped.removeFirst();
                    }
                    LOG.warn(
                            "state changes below {} were still not committed after {}; streams go on, and send them"
                                    + " late if they come",
                            target,
                            properties.events().gapWait());
                }
                finalUpTo = Math.max(finalUpTo, target);
                drain();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the database is away: the next broadcast or poll tries again
            LOG.warn("reading process events failed: {}", e.getMessage());
        }
    }

    /** Reads the committed changes after the horizon up to {@code target} into pending, and hands on what it can. */
    private void readUpTo(long target) {
        while (true) {
            long from;
            synchronized (lock) {
                from = horizon;
            }
            List<EventLog.Row> rows = log.between(from, target, PAGE);
            synchronized (lock) {
                for (EventLog.Row row : rows) {
                    if (row.id() > horizon) {
                        pending.putIfAbsent(row.id(), frames.of(row));
                    }
                }
                drain();
            }
            if (rows.size() < PAGE) {
                return;
            }
        }
    }

    private void heartbeat() {
        for (EventStream s : allStreams()) {
            s.heartbeat();
        }
    }

    // --- lifecycle

    @Override
    public void start() {
        if (!properties.hasRole(CairnProperties.Role.API)) {
            return;
        }
        sequencer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("event-sequencer").daemon().factory());
        heartbeats = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("event-heartbeats").daemon().factory());
        senders = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("event-stream-", 0).factory());
        sequencer.scheduleWithFixedDelay(
                () -> {
                    stopFollowingWhenIdle();
                    catchUp();
                },
                POLL.toMillis(),
                POLL.toMillis(),
                TimeUnit.MILLISECONDS);
        long beat = properties.events().heartbeat().toMillis();
        heartbeats.scheduleAtFixedRate(this::heartbeat, beat, beat, TimeUnit.MILLISECONDS);
    }

    /** Ends every stream (clients reconnect to another server, or to this one when it is back). */
    @Override
    public void stop() {
        ExecutorService executor = senders;
        senders = null;
        if (executor == null) {
            return;
        }
        synchronized (lock) {
            if (subscription != null) {
                subscription.close();
                subscription = null;
            }
        }
        sequencer.shutdownNow();
        heartbeats.shutdownNow();
        for (EventStream s : allStreams()) {
            s.close();
        }
        executor.shutdown();
    }

    @Override
    public boolean isRunning() {
        return senders != null;
    }

    /**
     * Starts after the web server and stops before it waits for open requests to end: open
     * streams would hold a graceful shutdown for its whole timeout.
     */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 512;
    }
}
