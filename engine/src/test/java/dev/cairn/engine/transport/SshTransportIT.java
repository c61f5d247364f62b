package dev.cairn.engine.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.testing.TestSshServer;
import dev.cairn.engine.testing.Waits;

/**
 * The {@link TransportContract} over SSH to an in-process MINA SSHD server ({@link TestSshServer})
 * that runs real processes and serves the real file system, plus what only SSH has: host keys,
 * authentication, and connections that drop.
 */
class SshTransportIT extends TransportContract {

    @TempDir
    static Path keys;

    static TestSshServer server;
    static SshTransport shared;

    @TempDir
    Path computer;

    private final List<Transport> opened = new ArrayList<>();

    @BeforeAll
    static void startServer() throws IOException, GeneralSecurityException {
        server = TestSshServer.start(keys);
        shared = SshTransport.connect(server.spec(keys.resolve("known_hosts")));
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (shared != null) {
            shared.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void closeOpened() {
        opened.forEach(Transport::close);
    }

    @Override
    protected Transport transport() {
        return shared;
    }

    @Override
    protected String scratch() {
        return computer.toString();
    }

    private SshTransport connect(TransportSpec.Ssh spec) {
        SshTransport t = SshTransport.connect(spec);
        opened.add(t);
        return t;
    }

    @Test
    void aClosedConnectionTellsTheServerItLeavesBeforeItsSocketCloses() throws InterruptedException {
        int told = server.disconnectsReceived().size();
        var sessions = server.sessions();
        SshTransport t = SshTransport.connect(server.spec(keys.resolve("known_hosts")));
        assertTrue(t.exec("true", null, Duration.ofSeconds(10)).ok());
        t.close();
        Waits.until(
                Duration.ofSeconds(10), "the session to end on the server", () -> server.openedSinceEnded(sessions));
        assertEquals(
                List.of(SshConstants.SSH2_DISCONNECT_BY_APPLICATION),
                server.disconnectsReceived()
                        .subList(told, server.disconnectsReceived().size()),
                "one disconnect message, by the application");
    }

    @Test
    void aPoolKeepsOneConnectionPerSpecDropsAFailedOneAndClosesWhatItKeepsWhenClosed() throws Exception {
        TransportSpec.Ssh spec = server.spec(keys.resolve("known_hosts"));
        Duration keepAlive = Duration.ofSeconds(30);
        var sessions = server.sessions();
        int logins = server.connections();
        TransportPool pool = new TransportPool();
        try (Transport first = pool.open(spec, keepAlive)) {
            assertTrue(first.exec("true", null, Duration.ofSeconds(10)).ok());
        }
        Transport second = pool.open(spec, keepAlive);
        assertTrue(second.exists(computer.toString()));
        assertEquals(1, server.connections() - logins, "the second transport took the kept connection");
        assertThrows(TransportException.class, () -> second.read(computer + "/missing"));
        second.close();
        Transport third = pool.open(spec, keepAlive);
        assertTrue(third.exists(computer.toString()));
        assertEquals(2, server.connections() - logins, "a connection that failed was not kept");

        pool.close();
        assertTrue(third.exists(computer.toString()), "a borrowed connection stays usable until given back");
        third.close();
        Waits.until(Duration.ofSeconds(10), "the pool's connections to close", () -> server.openedSinceEnded(sessions));
        var e = assertThrows(TransportException.class, () -> pool.open(spec, keepAlive));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        pool.close(); // closing again is harmless
    }

    @Test
    void acceptNewRecordsAnUnknownHostThatStrictThenAccepts() throws IOException {
        Path knownHosts = computer.resolve("known_hosts");
        connect(server.spec(knownHosts));
        String line = Files.readString(knownHosts);
        assertTrue(line.startsWith("[127.0.0.1]:" + server.port() + " "), line);

        var strict = connect(server.spec(knownHosts).withKnownHosts(knownHosts, HostKeyPolicy.STRICT));
        assertTrue(strict.exec("true", null, Duration.ofSeconds(10)).ok());
    }

    @Test
    void strictRefusesAnUnknownHostNotTransient() {
        Path knownHosts = computer.resolve("known_hosts");
        var e = assertThrows(
                TransportException.class,
                () -> connect(server.spec(knownHosts).withKnownHosts(knownHosts, HostKeyPolicy.STRICT)));
        assertFalse(e.isTransient(), e.getMessage());
        assertTrue(e.getMessage().contains(knownHosts.toString()), e.getMessage());
        assertFalse(Files.exists(knownHosts), "strict writes nothing");
    }

    @Test
    void aChangedHostKeyIsRefusedEvenWhenAcceptingNewHosts() throws Exception {
        Path knownHosts = computer.resolve("known_hosts");
        String otherKey = PublicKeyEntry.toString(TestSshServer.newKeyPair().getPublic());
        Files.writeString(knownHosts, "[127.0.0.1]:" + server.port() + " " + otherKey + "\n");

        var e = assertThrows(TransportException.class, () -> connect(server.spec(knownHosts)));
        assertFalse(e.isTransient(), e.getMessage());
        assertTrue(e.getMessage().contains("differs from the one in " + knownHosts), e.getMessage());
    }

    @Test
    void aKeyTheServerDoesNotKnowIsRefusedNotTransient() throws Exception {
        Path stranger = TestSshServer.writePrivateKey(TestSshServer.newKeyPair(), computer.resolve("id_stranger"));
        TransportSpec.Ssh spec = server.spec(keys.resolve("known_hosts"));
        var e = assertThrows(
                TransportException.class,
                () -> connect(new TransportSpec.Ssh(
                        spec.host(),
                        spec.port(),
                        spec.user(),
                        stranger,
                        null,
                        spec.knownHosts(),
                        spec.hostKeyPolicy(),
                        spec.connectTimeout())));
        assertFalse(e.isTransient(), e.getMessage());
        assertTrue(e.getMessage().contains("refused to authenticate with key " + stranger), e.getMessage());
    }

    @Test
    void aMissingKeyFileFailsNotTransientNamingIt() {
        Path missing = computer.resolve("id_missing");
        TransportSpec.Ssh spec = server.spec(keys.resolve("known_hosts"));
        var e = assertThrows(
                TransportException.class,
                () -> connect(new TransportSpec.Ssh(
                        spec.host(),
                        spec.port(),
                        spec.user(),
                        missing,
                        null,
                        spec.knownHosts(),
                        spec.hostKeyPolicy(),
                        spec.connectTimeout())));
        assertFalse(e.isTransient(), e.getMessage());
        assertTrue(
                e.getMessage().contains(missing.toString()) && e.getMessage().endsWith("no such file"), e.getMessage());
    }

    @Test
    void aPasswordAuthenticates() {
        TransportSpec.Ssh spec = server.spec(keys.resolve("known_hosts"));
        var t = connect(new TransportSpec.Ssh(
                spec.host(),
                spec.port(),
                spec.user(),
                null,
                TestSshServer.PASSWORD,
                spec.knownHosts(),
                spec.hostKeyPolicy(),
                spec.connectTimeout()));
        assertEquals("ok\n", t.exec("echo ok", null, Duration.ofSeconds(10)).stdout());
        assertFalse(t.toString().contains(TestSshServer.PASSWORD));
    }

    @Test
    void aClosedPortIsTransient() throws IOException {
        int closedPort;
        try (var socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        var e = assertThrows(
                TransportException.class,
                () -> connect(server.spec(keys.resolve("known_hosts"))
                        .withPort(closedPort)
                        .withConnectTimeout(Duration.ofSeconds(5))));
        assertTrue(e.isTransient(), e.getMessage());
        assertTrue(
                e.getMessage().contains("cannot connect to " + server.user() + "@127.0.0.1:" + closedPort),
                e.getMessage());
    }

    @Test
    void aDroppedConnectionIsOpenedAgainWhenRetried() {
        var t = connect(server.spec(keys.resolve("known_hosts")));
        t.write(computer + "/before", new byte[] {1});
        server.dropSessions();

        // the session is gone on the server's side: the next call fails transiently or, if the
        // client noticed already, connects again at once; retrying covers both
        Backoff backoff = new Backoff(Duration.ofMillis(200), 2, Duration.ofSeconds(1), 5);
        assertEquals(List.of("before"), backoff.retryTransient(() -> t.list(computer.toString())));
        assertEquals(
                "x\n",
                backoff.retryTransient(() -> t.exec("echo x", null, Duration.ofSeconds(10)))
                        .stdout());
    }

    @Test
    void aSpecFromAComputersConfigurationOpensTheTransport() {
        Map<String, Object> params = Map.of(
                "username",
                server.user(),
                "port",
                server.port(),
                "key_filename",
                server.clientKey().toString(),
                "known_hosts",
                keys.resolve("known_hosts").toString(),
                "host_key_policy",
                "accept-new",
                "timeout",
                10);
        Transport t = Transports.open(TransportSpec.of("core.ssh", "127.0.0.1", params));
        opened.add(t);
        assertTrue(t.exists(computer.toString()));
    }
}
