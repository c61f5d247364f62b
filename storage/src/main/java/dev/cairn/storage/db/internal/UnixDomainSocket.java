package dev.cairn.storage.db.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A JDK Unix domain {@link SocketChannel} behind the part of {@link Socket} the PostgreSQL driver
 * uses: connect with a timeout, the two streams, a read timeout ({@link #setSoTimeout}, which the driver's
 * {@code socketTimeout} and a pool's network timeout set), buffer sizes, close from another
 * thread (a connection's abort); {@code UnixSocketFactory} makes it. The channel is non-blocking
 * and waits on a selector only when it has nothing to read (or no room to write), so a timeout can
 * end the wait; TCP's options (no delay, keep-alive) mean nothing here and are taken and ignored.
 */
public final class UnixDomainSocket extends Socket {

    private final Path file;
    private SocketChannel channel;
    // one selector a direction: a read may wait while another thread writes, as on any socket
    private Selector readable;
    private Selector writable;
    private volatile int timeoutMillis;
    private volatile boolean closed;
    private final InputStream in = new In();
    private final OutputStream out = new Out();

    /** Unconnected; {@link #connect(SocketAddress, int)} connects it to {@code file}. */
    public UnixDomainSocket(Path file) {
        this.file = file;
    }

    /**
     * Connects to the socket file within {@code timeout} ms (0: no limit); {@code address} (the URL's
     * host and port) is not used.
     */
    @Override
    public synchronized void connect(SocketAddress address, int timeout) throws IOException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout < 0: " + timeout);
        }
        if (channel != null) {
            throw new SocketException("already connected to " + file);
        }
        SocketChannel opened = SocketChannel.open(StandardProtocolFamily.UNIX);
        // a local connect ends at once, the file there and listening or refused, unless the server's queue of
        // connections not yet accepted is full (a server that takes no more): then it waits for room
        ConnectDeadline deadline = timeout == 0 ? null : ConnectDeadline.closing(opened, timeout);
        try {
            opened.connect(UnixDomainSocketAddress.of(file));
            if (deadline != null && !deadline.disarm()) {
                throw new AsynchronousCloseException(); // closed by the deadline as the connect ended
            }
            opened.configureBlocking(false);
            readable = Selector.open();
            writable = Selector.open();
            opened.register(readable, SelectionKey.OP_READ);
            opened.register(writable, SelectionKey.OP_WRITE);
        } catch (IOException e) {
            opened.close();
            closeSelectors();
            if (deadline != null && deadline.passed()) {
                throw new SocketTimeoutException("no connection to PostgreSQL's Unix socket " + file + " within "
                        + timeout + " ms (the connect timeout): the server takes no more connections");
            }
            // the innermost exception, which is what a log of the connection's failure shows, names the file
            ConnectException refused =
                    new ConnectException("cannot connect to PostgreSQL's Unix socket " + file + ": " + e.getMessage());
            refused.addSuppressed(e);
            throw refused;
        }
        channel = opened;
    }

    @Override
    public void connect(SocketAddress address) throws IOException {
        connect(address, 0);
    }

    @Override
    public void bind(SocketAddress local) throws IOException {
        throw new SocketException("a Unix socket to " + file + " has no local address to bind");
    }

    @Override
    public boolean isConnected() {
        return channel != null;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public InputStream getInputStream() throws IOException {
        open();
        return in;
    }

    @Override
    public OutputStream getOutputStream() throws IOException {
        open();
        return out;
    }

    @Override
    public void setSoTimeout(int timeout) throws SocketException {
        if (timeout < 0) {
            throw new IllegalArgumentException("timeout < 0: " + timeout);
        }
        timeoutMillis = timeout;
    }

    @Override
    public int getSoTimeout() {
        return timeoutMillis;
    }

    @Override
    public void setTcpNoDelay(boolean on) {}

    @Override
    public boolean getTcpNoDelay() {
        return true;
    }

    @Override
    public void setKeepAlive(boolean on) {}

    @Override
    public boolean getKeepAlive() {
        return false;
    }

    @Override
    public int getSendBufferSize() throws SocketException {
        return option(StandardSocketOptions.SO_SNDBUF);
    }

    @Override
    public void setSendBufferSize(int size) throws SocketException {
        option(StandardSocketOptions.SO_SNDBUF, size);
    }

    @Override
    public int getReceiveBufferSize() throws SocketException {
        return option(StandardSocketOptions.SO_RCVBUF);
    }

    @Override
    public void setReceiveBufferSize(int size) throws SocketException {
        option(StandardSocketOptions.SO_RCVBUF, size);
    }

    @Override
    public void shutdownInput() throws IOException {
        open();
        channel.shutdownInput();
    }

    @Override
    public void shutdownOutput() throws IOException {
        open();
        channel.shutdownOutput();
    }

    /** Closes the channel; a thread waiting on it (another's read) wakes and fails with "Socket closed". */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (this) {
            try {
                if (channel != null) {
                    channel.close();
                }
            } finally {
                closeSelectors();
            }
        }
    }

    private void closeSelectors() throws IOException {
        try {
            if (readable != null) {
                readable.close();
            }
        } finally {
            if (writable != null) {
                writable.close();
            }
        }
    }

    @Override
    public String toString() {
        return "UnixDomainSocket[" + file + (closed ? ", closed" : "") + "]";
    }

    private int read(ByteBuffer buffer) throws IOException {
        open();
        try {
            int n;
            while ((n = channel.read(buffer)) == 0) {
                await(readable, timeoutMillis, "read");
            }
            return n;
        } catch (ClosedChannelException e) {
            throw closedException();
        }
    }

    private void write(ByteBuffer buffer) throws IOException {
        open();
        try {
            while (buffer.hasRemaining()) {
                if (channel.write(buffer) == 0) {
                    await(writable, 0, "write"); // no timeout, as on a TCP socket
                }
            }
        } catch (ClosedChannelException e) {
            throw closedException();
        }
    }

    /**
     * Waits on {@code selector} until the channel can be read or written, for {@code timeout} ms at
     * most (none when 0). An interrupt closes the socket, as it closes an interruptible channel.
     */
    private void await(Selector selector, int timeout, String what) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        try {
            while (true) {
                long leftNanos = deadline - System.nanoTime();
                if (timeout > 0 && leftNanos <= 0) {
                    throw new SocketTimeoutException(
                            "no " + what + " on " + file + " within " + timeout + " ms (the socket's timeout)");
                }
                // rounded up: a wait of less than a millisecond left is a wait of one, not none (select(0) is for ever)
                int ready = timeout == 0 ? selector.select() : selector.select(ceilMillis(leftNanos));
                if (Thread.currentThread().isInterrupted()) {
                    close();
                    throw new SocketException("Closed by interrupt");
                }
                open();
                if (ready > 0) {
                    selector.selectedKeys().clear();
                    return;
                }
            }
        } catch (ClosedSelectorException | CancelledKeyException e) {
            throw closedException();
        }
    }

    private static long ceilMillis(long nanos) {
        return Math.ceilDiv(nanos, TimeUnit.MILLISECONDS.toNanos(1));
    }

    private void open() throws SocketException {
        if (closed) {
            throw closedException();
        }
        if (channel == null) {
            throw new SocketException("not connected to " + file);
        }
    }

    private SocketException closedException() {
        return new SocketException("Socket closed");
    }

    private int option(SocketOption<Integer> name) throws SocketException {
        open();
        try {
            return channel.getOption(name);
        } catch (IOException e) {
            throw new SocketException(e.getMessage());
        }
    }

    private void option(SocketOption<Integer> name, int value) throws SocketException {
        open();
        try {
            channel.setOption(name, value);
        } catch (IOException e) {
            throw new SocketException(e.getMessage());
        }
    }

    private final class In extends InputStream {

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            return len == 0 ? 0 : UnixDomainSocket.this.read(ByteBuffer.wrap(b, off, len));
        }

        @Override
        public void close() throws IOException {
            UnixDomainSocket.this.close();
        }
    }

    private final class Out extends OutputStream {

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            Objects.checkFromIndexSize(off, len, b.length);
            UnixDomainSocket.this.write(ByteBuffer.wrap(b, off, len));
        }

        @Override
        public void close() throws IOException {
            UnixDomainSocket.this.close();
        }
    }
}
