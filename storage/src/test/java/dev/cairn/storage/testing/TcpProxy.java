package dev.cairn.storage.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder between the server under test and a service, which the test can cut: every
 * connection through it is closed at once and new ones are refused (the port is closed), as when the
 * service's host goes away; {@link #restore} opens the same port again. What the service sends may
 * pass through a {@link Pump} of the test's, which can drop what the client should not see. The shared
 * service itself is never touched.
 */
public final class TcpProxy implements AutoCloseable {

    /** Copies one direction of a connection until its end. */
    @FunctionalInterface
    public interface Pump {
        void transfer(InputStream from, OutputStream to) throws IOException;
    }

    private final InetSocketAddress target;
    private final Pump fromService;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;

    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this(targetHost, targetPort, InputStream::transferTo);
    }

    /** A proxy whose {@code fromService} passes on what the service sends its clients. */
    public TcpProxy(String targetHost, int targetPort, Pump fromService) throws IOException {
        this.target = new InetSocketAddress(targetHost, targetPort);
        this.fromService = fromService;
        this.listener = listen(0);
        this.port = listener.getLocalPort();
        accept(listener);
    }

    public int port() {
        return port;
    }

    /** Closes every connection through the proxy and refuses new ones. */
    public synchronized void cut() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
    }

    /** Takes connections again, on the same port. */
    public synchronized void restore() throws IOException {
        if (!listener.isClosed()) {
            return;
        }
        listener = listen(port);
        accept(listener);
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return socket;
    }

    private void accept(ServerSocket server) {
        Thread.ofVirtual().name("tcp-proxy-accept").start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    Socket upstream = new Socket();
                    upstream.connect(target, 5000);
                    synchronized (this) {
                        if (server.isClosed()) {
                            // cut while this one was being connected: it goes with the others
                            closeQuietly(client);
                            closeQuietly(upstream);
                            continue;
                        }
                        sockets.add(client);
                        sockets.add(upstream);
                    }
                    pump(client, upstream, InputStream::transferTo);
                    pump(upstream, client, fromService);
                } catch (IOException e) {
                    // the listener was closed (a cut), or the service refused: the client sees its connection end
                }
            }
        });
    }

    private void pump(Socket from, Socket to, Pump how) {
        Thread.ofVirtual().name("tcp-proxy-pump").start(() -> {
            try (InputStream in = from.getInputStream();
                    OutputStream out = to.getOutputStream()) {
                how.transfer(in, out);
            } catch (IOException e) {
                // one side ended
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
            }
        });
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closed already
        }
    }

    @Override
    public void close() throws IOException {
        cut();
    }
}
