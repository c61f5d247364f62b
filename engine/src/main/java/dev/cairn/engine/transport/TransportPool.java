package dev.cairn.engine.transport;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The transports an engine opens, and what it keeps of them between uses: SSH connections left
 * open after use, and the {@code /bin/sh} processes that run commands on this machine. They
 * belong to the engine that made the pool and end when it closes, so an engine closed and opened
 * again in one JVM leaves nothing behind.
 * <p>
 * A cluster's login node counts every SSH login, and an engine that logged in for every job
 * submission, status poll and retrieval would open thousands (AiiDA's users meet its limits);
 * here a transport that is closed goes back, still connected, and the next one opened to the
 * same host with the same settings takes it (for a computer with a connection limit, only if it
 * holds that computer's permit). At most one idle connection is kept per {@link TransportSpec}
 * (and computer with a limit) in a pool, and it is closed after {@code keepAlive} without use (by
 * the pool's thread {@code cairn-idle-transports}). A transport that failed is closed, not kept.
 * Local transports cost nothing to open and all share the pool's kept shells.
 * <p>
 * A transport holds its {@link ConnectionPermit} for as long as it is open, kept idle included,
 * so a computer's limit counts the connections its login node sees; an idle connection whose
 * permit another engine waits for is closed at the closer's next pass (each second).
 */
public final class TransportPool implements AutoCloseable {

    /** The name of the thread that closes idle connections once their keep-alive has passed. */
    private static final String CLOSER_THREAD = "cairn-idle-transports";

    private record Idle(Transport transport, ConnectionPermit permit, long since, Duration keepAlive) {
        boolean expired(long now) {
            return now - since > keepAlive.toNanos();
        }

        /** Whether its permit is wanted elsewhere; a permit that cannot tell lets the connection go. */
        boolean wanted() {
            try {
                return permit.wanted();
            } catch (RuntimeException e) {
                return true;
            }
        }

        void close() {
            try {
                transport.close();
            } finally {
                permit.release();
            }
        }
    }

    /**
     * What a kept connection is kept for: its spec, and the computer whose connection permit it
     * holds (null for all without a limit), so that a computer with a limit never uses a
     * connection counted against another one on the same login node.
     */
    record Keeping(TransportSpec spec, Object permitOwner) {}

    private final Map<Keeping, Idle> idle = new ConcurrentHashMap<>();
    private final LocalShells shells = new LocalShells("this transport pool");
    private final ScheduledExecutorService closer;
    private volatile boolean closed;

    /** An empty pool, with its thread that closes idle connections started. */
    public TransportPool() {
        closer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name(CLOSER_THREAD).daemon().factory());
        closer.scheduleWithFixedDelay(this::closeExpired, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * A transport to {@code spec}: over SSH a kept connection if there is one, else a new one
     * (kept after use for {@code keepAlive}; zero: closed with the transport); on this machine
     * one that runs its commands on the pool's shells. Close it after use.
     *
     * @throws TransportException when the pool is closed (its engine was closed), or as
     *                            {@link Transports#open} does
     */
    public Transport open(TransportSpec spec, Duration keepAlive) {
        return open(spec, keepAlive, null, () -> ConnectionPermit.NONE);
    }

    /**
     * As {@link #open(TransportSpec, Duration)}, for a computer that allows only so many
     * connections at once ({@code permitOwner}, the computer; connections are kept and shared per
     * owner): a kept connection already holds its permit; a new one takes one from
     * {@code permits} first (which may wait for one, or throw), and releases it when it closes.
     */
    public Transport open(
            TransportSpec spec, Duration keepAlive, Object permitOwner, Supplier<ConnectionPermit> permits) {
        requireOpen(spec);
        Keeping keeping = new Keeping(spec, permitOwner);
        if (spec instanceof TransportSpec.Ssh && !keepAlive.isZero()) {
            Idle kept = idle.remove(keeping);
            if (kept != null && !kept.expired(System.nanoTime())) {
                return new PooledTransport(this, keeping, kept.transport, kept.permit, keepAlive);
            }
            if (kept != null) {
                kept.close();
            }
        }
        ConnectionPermit permit = permits.get();
        try {
            Transport transport = switch (spec) {
                case TransportSpec.Local local -> new LocalTransport(local.environment(), shells);
                case TransportSpec.Ssh ssh -> SshTransport.connect(ssh);
            };
            return new PooledTransport(this, keeping, transport, permit, keepAlive);
        } catch (RuntimeException e) {
            permit.release();
            throw e;
        }
    }

    /**
     * Takes back a transport after use: an SSH connection that did not fail is kept (closing the
     * one it replaces) unless it has no keep-alive or the pool is closed; anything else is closed
     * and its permit released.
     */
    void giveBack(Keeping keeping, Transport transport, ConnectionPermit permit, Duration keepAlive, boolean failed) {
        Idle mine = new Idle(transport, permit, System.nanoTime(), keepAlive);
        if (failed || closed || keepAlive.isZero() || !(keeping.spec() instanceof TransportSpec.Ssh)) {
            mine.close();
            return;
        }
        Idle previous = idle.put(keeping, mine);
        if (previous != null) {
            previous.close();
        }
        // close() may have emptied the pool since the check above: it sets the flag first, so
        // either it saw this connection or this sees the flag
        if (closed && idle.remove(keeping, mine)) {
            mine.close();
        }
    }

    private void closeExpired() {
        long now = System.nanoTime();
        idle.forEach((keeping, kept) -> {
            if ((kept.expired(now) || kept.wanted()) && idle.remove(keeping, kept)) {
                kept.close();
            }
        });
    }

    private void requireOpen(TransportSpec spec) {
        if (closed) {
            String where = spec instanceof TransportSpec.Ssh ssh ? ssh.where() : "this machine";
            // not transient: this pool will not open again; a step that meets it is tried again
            // later, by a worker of an open engine
            throw new TransportException(
                    "cannot open a transport to " + where + ": the transport pool is closed (its engine was closed)",
                    false,
                    null);
        }
    }

    /**
     * Closes every kept connection, stops the thread that closes idle ones, and ends the kept
     * shells (their processes and folders gone). Transports still borrowed are closed when
     * they are given back. Closing again does nothing.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // no interrupt: a close under way on the closer thread finishes
        closer.shutdown();
        idle.forEach((keeping, kept) -> {
            if (idle.remove(keeping, kept)) {
                kept.close();
            }
        });
        shells.close();
        try {
            closer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
