package dev.cairn.storage.db.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketOption;
import javax.net.SocketFactory;

import jdk.net.ExtendedSocketOptions;

/**
 * The sockets of the driver's connections, with TCP keepalive probes after {@code idle} seconds of
 * silence, every {@code interval} seconds, {@code count} times: so that a connection whose server
 * vanished (a host cut off, a partition) fails within about {@code idle + interval × count} even
 * while it waits for an answer, instead of after the system's default of over two hours, and the
 * pool opens a new one once the server is back. The driver makes it by name ({@code socketFactory})
 * with {@code "idle,interval,count"} ({@code socketFactoryArg}); see {@link DatabaseConfig#deadConnectionTimeout()}.
 */
public final class KeepAliveSockets extends SocketFactory {

    private final int idle;
    private final int interval;
    private final int count;

    /** @param settings {@code "idle,interval,count"}, in seconds and probes */
    public KeepAliveSockets(String settings) {
        String[] parts = settings == null ? new String[0] : settings.split(",");
        if (parts.length != 3) {
            throw new IllegalArgumentException("keepalive settings are 'idle,interval,count', not '" + settings + "'");
        }
        this.idle = Integer.parseInt(parts[0].strip());
        this.interval = Integer.parseInt(parts[1].strip());
        this.count = Integer.parseInt(parts[2].strip());
    }

    @Override
    public Socket createSocket() throws IOException {
        Socket socket = new Socket();
        socket.setKeepAlive(true);
        set(socket, ExtendedSocketOptions.TCP_KEEPIDLE, idle);
        set(socket, ExtendedSocketOptions.TCP_KEEPINTERVAL, interval);
        set(socket, ExtendedSocketOptions.TCP_KEEPCOUNT, count);
        return socket;
    }

    /** Where the system lacks the option, its default stays (the keepalive itself is on). */
    private static void set(Socket socket, SocketOption<Integer> option, int value) throws IOException {
        if (socket.supportedOptions().contains(option)) {
            socket.setOption(option, value);
        }
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        Socket socket = createSocket();
        socket.bind(new InetSocketAddress(localHost, localPort));
        socket.connect(new InetSocketAddress(host, port));
        return socket;
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        Socket socket = createSocket();
        socket.bind(new InetSocketAddress(localAddress, localPort));
        socket.connect(new InetSocketAddress(address, port));
        return socket;
    }

    private Socket connected(InetSocketAddress address) throws IOException {
        Socket socket = createSocket();
        socket.connect(address);
        return socket;
    }
}
