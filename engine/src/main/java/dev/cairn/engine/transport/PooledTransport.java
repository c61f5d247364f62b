package dev.cairn.engine.transport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * A transport borrowed from a {@link TransportPool}, with the permit it holds: closing it gives
 * both back to the pool, which keeps an SSH connection still connected unless an operation on it
 * failed (a connection that failed is not kept).
 */
final class PooledTransport implements Transport {
    private final TransportPool pool;
    private final TransportPool.Keeping keeping;
    private final Transport transport;
    private final ConnectionPermit permit;
    private final Duration keepAlive;
    private boolean failed;
    private boolean closed;

    PooledTransport(
            TransportPool pool,
            TransportPool.Keeping keeping,
            Transport transport,
            ConnectionPermit permit,
            Duration keepAlive) {
        this.pool = pool;
        this.keeping = keeping;
        this.transport = transport;
        this.permit = permit;
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
        pool.giveBack(keeping, transport, permit, keepAlive, failed);
    }

    @Override
    public String toString() {
        return transport.toString();
    }
}
