package dev.cairn.engine.transport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * SSH connections kept open between uses. A cluster's login node counts every SSH login, and
 * an engine that logged in for every job submission, status poll and retrieval would open
 * thousands (AiiDA's users meet its limits); here a transport that is closed goes back, still
 * connected, and the next one opened to the same host with the same settings takes it. At most
 * one idle connection is kept per {@link TransportSpec} in this JVM, and it is closed after
 * {@code keepAlive} without use. A transport that failed is closed, not kept. Local transports
 * cost nothing to open and are never kept.
 */
public final class SharedTransports {

    private record Idle(Transport transport, long since, Duration keepAlive) {
        boolean expired(long now) {
            return now - since > keepAlive.toNanos();
        }
    }

    private static final Map<TransportSpec.Ssh, Idle> IDLE = new ConcurrentHashMap<>();
    private static final ScheduledExecutorService CLOSER = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("cairn-idle-transports").daemon().factory());

    static {
        CLOSER.scheduleWithFixedDelay(SharedTransports::closeExpired, 1, 1, TimeUnit.SECONDS);
    }

    private SharedTransports() {}

    /** A transport to {@code spec}: a kept SSH connection if there is one, else a new one. */
    public static Transport open(TransportSpec spec, Duration keepAlive) {
        if (!(spec instanceof TransportSpec.Ssh ssh) || keepAlive.isZero()) {
            return Transports.open(spec);
        }
        Idle idle = IDLE.remove(ssh);
        if (idle != null && !idle.expired(System.nanoTime())) {
            return new Kept(ssh, idle.transport, keepAlive);
        }
        if (idle != null) {
            idle.transport.close();
        }
        return new Kept(ssh, Transports.open(spec), keepAlive);
    }

    /** Closes every kept connection (for tests and shutdown). */
    public static void closeAll() {
        IDLE.keySet().forEach(spec -> {
            Idle idle = IDLE.remove(spec);
            if (idle != null) {
                idle.transport.close();
            }
        });
    }

    private static void closeExpired() {
        long now = System.nanoTime();
        IDLE.forEach((spec, idle) -> {
            if (idle.expired(now) && IDLE.remove(spec, idle)) {
                idle.transport.close();
            }
        });
    }

    private static void giveBack(TransportSpec.Ssh spec, Transport transport, Duration keepAlive) {
        Idle previous = IDLE.put(spec, new Idle(transport, System.nanoTime(), keepAlive));
        if (previous != null) {
            previous.transport.close();
        }
    }

    /** A borrowed connection: closing it gives it back, unless it failed. */
    private static final class Kept implements Transport {
        private final TransportSpec.Ssh spec;
        private final Transport transport;
        private final Duration keepAlive;
        private boolean failed;
        private boolean closed;

        Kept(TransportSpec.Ssh spec, Transport transport, Duration keepAlive) {
            this.spec = spec;
            this.transport = transport;
            this.keepAlive = keepAlive;
        }

        private <T> T use(Supplier<T> operation) {
            try {
                return operation.get();
            } catch (RuntimeException e) {
                failed = true;
                throw e;
            }
        }

        private void run(Runnable operation) {
            use(() -> {
                operation.run();
                return null;
            });
        }

        @Override
        public CommandResult exec(String command, String workdir, Duration timeout) {
            return use(() -> transport.exec(command, workdir, timeout));
        }

        @Override
        public void mkdirs(String path) {
            run(() -> transport.mkdirs(path));
        }

        @Override
        public void write(String path, byte[] content) {
            run(() -> transport.write(path, content));
        }

        @Override
        public void put(Path local, String path) {
            run(() -> transport.put(local, path));
        }

        @Override
        public byte[] read(String path) {
            return use(() -> transport.read(path));
        }

        @Override
        public void get(String path, Path local) {
            run(() -> transport.get(path, local));
        }

        @Override
        public boolean exists(String path) {
            return use(() -> transport.exists(path));
        }

        @Override
        public boolean isDirectory(String path) {
            return use(() -> transport.isDirectory(path));
        }

        @Override
        public List<String> list(String directory) {
            return use(() -> transport.list(directory));
        }

        @Override
        public void remove(String path) {
            run(() -> transport.remove(path));
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (failed) {
                transport.close();
            } else {
                giveBack(spec, transport, keepAlive);
            }
        }

        @Override
        public String toString() {
            return transport.toString();
        }
    }
}
