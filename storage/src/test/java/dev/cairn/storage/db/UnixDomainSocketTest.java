package dev.cairn.storage.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The socket the driver gets from {@link UnixSocketFactory}, against a Unix socket server of the test's own. */
@Timeout(60)
class UnixDomainSocketTest {

    @TempDir
    Path dir;

    private Path file;
    private ServerSocketChannel server;
    // threads of the test's own: the common pool may have one, which the echo would hold
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeEach
    void listen() throws IOException {
        file = dir.resolve(".s.PGSQL.5432");
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(file));
    }

    @AfterEach
    void stop() throws IOException {
        threads.shutdownNow();
        server.close();
    }

    @Test
    void megabytesGoBothWaysWhole() throws Exception {
        byte[] sent = new byte[4 << 20];
        new Random(7).nextBytes(sent);
        // echoes what comes until the client shuts its output
        CompletableFuture<Void> echo = CompletableFuture.runAsync(
                () -> {
                    try (SocketChannel peer = server.accept()) {
                        ByteBuffer buffer = ByteBuffer.allocate(64 << 10);
                        while (peer.read(buffer) >= 0) {
                            buffer.flip();
                            while (buffer.hasRemaining()) {
                                peer.write(buffer);
                            }
                            buffer.clear();
                        }
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                },
                threads);
        try (Socket socket = connected()) {
            // written from another thread: 4 MB is more than the socket buffers hold while nobody reads
            CompletableFuture<Void> writing = CompletableFuture.runAsync(
                    () -> {
                        try {
                            socket.getOutputStream().write(sent);
                            socket.shutdownOutput();
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    },
                    threads);
            byte[] received = socket.getInputStream().readAllBytes();
            writing.get(30, TimeUnit.SECONDS);
            assertArrayEquals(sent, received);
        }
        echo.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aReadWithATimeoutFailsWhenNothingComesInTime() throws Exception {
        try (Socket socket = connected();
                SocketChannel peer = server.accept()) {
            socket.setSoTimeout(200);
            long started = System.nanoTime();
            SocketTimeoutException e = assertThrows(
                    SocketTimeoutException.class, () -> socket.getInputStream().read(new byte[16]));
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(waited >= 190 && waited < 5_000, "waited " + waited + " ms");
            assertTrue(
                    e.getMessage().contains(file.toString()) && e.getMessage().contains("200 ms"), e.getMessage());
            // the connection is still usable after a timeout, as the driver's check for notifications needs
            peer.write(ByteBuffer.wrap(new byte[] {42}));
            assertEquals(42, socket.getInputStream().read());
        }
    }

    @Test
    void aTimeoutOfOneMillisecondIsWaitedNotSkipped() throws Exception {
        try (Socket socket = connected();
                SocketChannel peer = server.accept()) {
            socket.setSoTimeout(1);
            for (int i = 0; i < 20; i++) {
                long started = System.nanoTime();
                assertThrows(
                        SocketTimeoutException.class,
                        () -> socket.getInputStream().read(new byte[16]));
                long waited = System.nanoTime() - started;
                assertTrue(
                        waited >= TimeUnit.MILLISECONDS.toNanos(1), "read " + i + " gave up after " + waited + " ns");
            }
        }
    }

    @Test
    void closingFromAnotherThreadEndsAReadThatWaitsWithoutTimeout() throws Exception {
        try (Socket socket = connected();
                SocketChannel peer = server.accept()) {
            InputStream in = socket.getInputStream();
            CountDownLatch reading = new CountDownLatch(1);
            CompletableFuture<Throwable> read = CompletableFuture.supplyAsync(
                    () -> {
                        reading.countDown();
                        try {
                            in.read(new byte[16]);
                            return null;
                        } catch (IOException e) {
                            return e;
                        }
                    },
                    threads);
            assertTrue(reading.await(10, TimeUnit.SECONDS));
            Thread.sleep(100); // the reader is in its wait (or about to be: either way it must end)
            socket.close();
            Throwable failure = read.get(10, TimeUnit.SECONDS);
            assertTrue(failure instanceof SocketException, String.valueOf(failure));
            assertEquals("Socket closed", failure.getMessage());
            assertTrue(socket.isClosed());
        }
    }

    @Test
    void theEndOfTheStreamReadsAsEnd() throws Exception {
        try (Socket socket = connected()) {
            server.accept().close();
            assertTimeoutPreemptively(
                    Duration.ofSeconds(10),
                    () -> assertEquals(-1, socket.getInputStream().read()));
        }
    }

    @Test
    void aConnectToAServerThatTakesNoMoreEndsAtItsTimeout() throws Exception {
        server.close();
        Files.delete(file);
        // a queue of one connection not yet accepted, and nobody accepts: the next connects wait for room
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(file), 1);
        List<Socket> queued = new ArrayList<>();
        try {
            long[] waited = new long[1];
            SocketTimeoutException timedOut = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                for (int i = 0; i < 64; i++) {
                    Socket socket = new UnixSocketFactory(file.toString()).createSocket();
                    long start = System.nanoTime();
                    try {
                        socket.connect(null, 300);
                        queued.add(socket);
                    } catch (SocketTimeoutException e) {
                        waited[0] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                        return e;
                    }
                }
                throw new AssertionError("64 connections queued and none waited: the server's queue never filled");
            });
            assertTrue(waited[0] >= 250 && waited[0] < 10_000, "the connect gave up after " + waited[0] + " ms");
            assertTrue(timedOut.getMessage().contains(file.toString()), timedOut.getMessage());
            assertTrue(timedOut.getMessage().contains("300 ms"), timedOut.getMessage());
            assertTrue(queued.stream().allMatch(Socket::isConnected), "the connections before it stay connected");
        } finally {
            for (Socket socket : queued) {
                socket.close();
            }
        }
    }

    @Test
    void aMissingSocketFileIsNamedInTheRefusal() {
        Path missing = dir.resolve("nowhere/.s.PGSQL.1");
        IOException e = assertThrows(
                IOException.class, () -> new UnixSocketFactory(missing.toString()).createSocket("localhost", 5432));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
        // innermost: the driver wraps it, and a log of the failure's root cause shows this message
        assertNull(e.getCause());
    }

    @Test
    void aFactoryWithoutItsSocketFileSaysWhatToGive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new UnixSocketFactory(" "));
        assertTrue(e.getMessage().contains("socketFactoryArg"), e.getMessage());
    }

    private Socket connected() throws IOException {
        Socket socket = new UnixSocketFactory(file.toString()).createSocket();
        socket.connect(null, 1_000);
        return socket;
    }
}
