package dev.cairn.storage.db;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import javax.net.SocketFactory;

import dev.cairn.storage.db.internal.UnixDomainSocket;

/**
 * Connects the PostgreSQL driver to a database on the same host through its Unix domain socket
 * rather than TCP on loopback: the kernel does less for each message, and PostgreSQL's backend
 * spends less processor time sending rows (docs/performance.md, "A Unix socket to the database").
 * Named in the JDBC URL, with the socket file as its argument (the host and port are then not used;
 * one URL, broken here):
 * <pre>{@code
 * jdbc:postgresql://localhost/cairn?socketFactory=dev.cairn.storage.db.UnixSocketFactory
 *     &socketFactoryArg=/var/run/postgresql/.s.PGSQL.5432
 * }</pre>
 * It uses the JDK's Unix domain channels, no native library.
 */
public final class UnixSocketFactory extends SocketFactory {

    private final Path socket;

    /** The driver makes one per connection, with the URL's {@code socketFactoryArg}. */
    public UnixSocketFactory(String socketFile) {
        if (socketFile == null || socketFile.isBlank()) {
            throw new IllegalArgumentException("socketFactoryArg must name PostgreSQL's Unix socket file, such as"
                    + " /var/run/postgresql/.s.PGSQL.5432, for the socketFactory "
                    + getClass().getName());
        }
        this.socket = Path.of(socketFile);
    }

    /** The one the driver calls: it connects the socket itself, with its connect timeout. */
    @Override
    public Socket createSocket() {
        return new UnixDomainSocket(socket);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return connected();
    }

    private Socket connected() throws IOException {
        Socket s = createSocket();
        s.connect(null);
        return s;
    }
}
