package dev.cairn.storage.objects.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * An HTTP proxy in front of an S3 server that fails some requests as a network and an overloaded server
 * do: it answers {@code 500 InternalError} without passing the request on, or passes it on and then drops
 * the connection without the answer (the request took effect; the client cannot know). Every request gets
 * a connection of its own upstream; bytes are passed on unchanged, so the client's signatures hold.
 *
 * <p>A test can also stop a chosen request at the door ({@link #before}): the proxy runs the test's code
 * and only then passes the request on, which puts another client's requests exactly between two of this
 * one's; and it can refuse the requests it chooses ({@link #refuse}).
 */
public final class FaultyProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int upstreamPort;
    private final Random random;
    private final double failureRate;
    private volatile boolean failAll;
    private volatile Predicate<String> refusing = head -> false;
    private volatile Predicate<String> held = head -> false;
    private volatile Hook hook = head -> {};
    public final AtomicInteger requests = new AtomicInteger();
    public final AtomicInteger refused = new AtomicInteger();
    public final AtomicInteger dropped = new AtomicInteger();
    private final Thread acceptor;

    public FaultyProxy(int upstreamPort, double failureRate, long seed) throws IOException {
        this.upstreamPort = upstreamPort;
        this.failureRate = failureRate;
        this.random = new Random(seed);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofPlatform().name("faulty-proxy").daemon().start(this::accept);
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** Fails every request from now on (with a 500), or none of those it would not fail anyway. */
    public void failAll(boolean on) {
        failAll = on;
    }

    /** Code run before a request is passed on. */
    @FunctionalInterface
    public interface Hook {
        void run(String requestLine) throws Exception;
    }

    /**
     * Runs {@code hook} with the request line of each request {@code which} accepts (given its request line,
     * {@code METHOD /path?query HTTP/1.1}), before passing the request on.
     */
    public void before(Predicate<String> which, Hook hook) {
        this.hook = hook;
        this.held = which;
    }

    /** Answers 500 to every request {@code which} accepts (given its request line) from now on. */
    public void refuse(Predicate<String> which) {
        this.refusing = which;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Thread.ofVirtual().start(() -> serve(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private enum Fate {
        PASS,
        REFUSE,
        DROP
    }

    private synchronized Fate fate(String requestLine) {
        requests.incrementAndGet();
        if (failAll || refusing.test(requestLine)) {
            refused.incrementAndGet();
            return Fate.REFUSE;
        }
        double r = random.nextDouble();
        if (r < failureRate / 2) {
            refused.incrementAndGet();
            return Fate.REFUSE;
        }
        if (r < failureRate) {
            dropped.incrementAndGet();
            return Fate.DROP;
        }
        return Fate.PASS;
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                String requestLine = head.substring(0, head.indexOf("\r\n"));
                Fate fate = fate(requestLine);
                if (fate == Fate.REFUSE) {
                    byte[] body = "<Error><Code>InternalError</Code><Message>injected</Message></Error>"
                            .getBytes(StandardCharsets.UTF_8);
                    out.write(("HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/xml\r\n"
                                    + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.write(body);
                    out.flush();
                    return;
                }
                if (held.test(requestLine)) {
                    try {
                        hook.run(requestLine);
                    } catch (Exception e) {
                        throw new IOException("the hook before " + requestLine + " failed", e);
                    }
                }
                long length = contentLength(head);
                if (head.toLowerCase(Locale.ROOT).contains("\r\nexpect: 100-continue")) {
                    out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
                byte[] answer;
                try (Socket up = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
                    OutputStream upOut = up.getOutputStream();
                    upOut.write(forwarded(head).getBytes(StandardCharsets.ISO_8859_1));
                    copy(in, upOut, length);
                    upOut.flush();
                    answer = up.getInputStream().readAllBytes(); // the server closes: Connection: close
                }
                if (fate == Fate.DROP) {
                    return; // it took effect; the client hears nothing
                }
                out.write(answer);
                out.flush();
                return; // the answer says Connection: close
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int state = 0;
        int c;
        while ((c = in.read()) >= 0) {
            b.write(c);
            state = switch (state) {
                case 0, 2 -> c == '\r' ? state + 1 : 0;
                case 1 -> c == '\n' ? 2 : 0;
                case 3 -> c == '\n' ? 4 : 0;
                default -> 0;
            };
            if (state == 4) {
                return b.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    private static long contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Long.parseLong(line.substring(15).trim());
            }
        }
        return 0;
    }

    /** The head without Expect and Connection (answered here; one request per upstream connection). */
    private static String forwarded(String head) {
        StringBuilder out = new StringBuilder();
        for (String line : head.split("\r\n")) {
            String l = line.toLowerCase(Locale.ROOT);
            if (!line.isEmpty() && !l.startsWith("expect:") && !l.startsWith("connection:")) {
                out.append(line).append("\r\n");
            }
        }
        return out.append("Connection: close\r\n\r\n").toString();
    }

    private static void copy(InputStream in, OutputStream out, long length) throws IOException {
        byte[] buf = new byte[64 << 10];
        long left = length;
        while (left > 0) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (n < 0) {
                throw new IOException("the client sent less than its Content-Length");
            }
            out.write(buf, 0, n);
            left -= n;
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        try {
            acceptor.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
