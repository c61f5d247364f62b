package dev.cairn.e2e.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A service of a host made reachable from the tests' JVM, which runs outside the network and never
 * addresses it: a port on this machine's loopback whose connections go on through a Unix socket
 * (the file system is shared) to the host's service, by a {@code socat} on the host, or straight
 * to a Unix socket the service listens on itself (PostgreSQL does). Cutting or partitioning
 * the service's host from other hosts leaves the tests' way in alone.
 */
public final class Relay implements AutoCloseable {

    private final ServerSocketChannel server;
    private volatile Path socket;
    private final HostProcess socat;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;

    private Relay(ServerSocketChannel server, Path socket, HostProcess socat) {
        this.server = server;
        this.socket = socket;
        this.socat = socat;
        this.acceptor = Thread.ofPlatform()
                .daemon()
                .name("relay-" + socket.getFileName())
                .start(this::accept);
    }

    /** To {@code address:port} on {@code host}, through a socat there listening on a Unix socket. */
    public static Relay to(Host host, String address, int port) {
        Path socket = host.dir().resolve("relay-" + address + "-" + port + ".sock");
        HostProcess socat = host.start(
                "relay-" + address + "-" + port,
                List.of(
                        "socat",
                        "UNIX-LISTEN:" + socket + ",fork,unlink-early,mode=600",
                        "TCP:" + address + ":" + port));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!Files.exists(socket)) {
            if (!socat.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("socat on " + host.name() + " did not listen on " + socket
                        + " (is socat installed? source .ci/hosts)" + socat.tail());
            }
            HostProcess.sleep(Duration.ofMillis(10));
        }
        return open(socket, socat);
    }

    /** To a Unix socket a service listens on itself. */
    public static Relay toSocket(Path socket) {
        return open(socket, null);
    }

    private static Relay open(Path socket, HostProcess socat) {
        try {
            ServerSocketChannel server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return new Relay(server, socket, socat);
        } catch (IOException e) {
            throw new UncheckedIOException("no port on loopback for a relay to " + socket, e);
        }
    }

    /**
     * From now on, to the Unix socket {@code other} listens on (a promoted standby's, after its
     * primary was lost): the tests keep their address, as a client keeps a multi-host URL.
     * Connections open already stay where they went.
     */
    public void redirect(Path other) {
        this.socket = other;
    }

    /** The loopback port the tests connect to. */
    public int port() {
        return ((InetSocketAddress) server.socket().getLocalSocketAddress()).getPort();
    }

    /** {@code 127.0.0.1:port}. */
    public String hostAndPort() {
        return "127.0.0.1:" + port();
    }

    private void accept() {
        while (server.isOpen()) {
            try {
                SocketChannel client = server.accept();
                SocketChannel service;
                try {
                    service = SocketChannel.open(StandardProtocolFamily.UNIX);
                    service.connect(UnixDomainSocketAddress.of(socket));
                } catch (IOException e) {
                    client.close(); // the service is away: the client sees its connection closed
                    continue;
                }
                open.add(client);
                open.add(service);
                Thread.ofVirtual().start(() -> pipe(client, service));
                Thread.ofVirtual().start(() -> pipe(service, client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pipe(SocketChannel from, SocketChannel to) {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        try {
            while (from.read(buffer) >= 0) {
                buffer.flip();
                while (buffer.hasRemaining()) {
                    to.write(buffer);
                }
                buffer.clear();
            }
        } catch (IOException e) {
            // one side went away
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void closeQuietly(SocketChannel channel) {
        open.remove(channel);
        try {
            channel.close();
        } catch (IOException ignored) {
            // closed already
        }
    }

    /** Stops taking connections and closes those open (the socat goes with its host). */
    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closed already
        }
        open.forEach(this::closeQuietly);
        if (socat != null) {
            socat.close();
        }
        try {
            acceptor.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
