package dev.cairn.engine.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.file.nativefs.NativeFileSystemFactory;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.shell.ProcessShellFactory;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

import dev.cairn.engine.transport.HostKeyPolicy;
import dev.cairn.engine.transport.TransportSpec;

/**
 * An SSH server in this JVM on a free port of 127.0.0.1, as a computer would run OpenSSH: exec
 * requests run as real processes with {@code /bin/sh -c} (OpenSSH runs the login shell with
 * {@code -c}), SFTP serves this machine's file system. It accepts one user with a generated
 * ed25519 key, written to a file in OpenSSH format as ssh-keygen would, or with {@link #PASSWORD}.
 * It can be stopped and started again on the same port with the same keys, as a login node
 * that reboots.
 */
public final class TestSshServer implements AutoCloseable {

    public static final String PASSWORD = "correct horse";

    private final KeyPair hostKey;
    private final KeyPair clientKeyPair;
    private final Path clientKey;
    private final String user;
    private final AtomicInteger logins = new AtomicInteger();
    private final List<Integer> disconnectsReceived = new CopyOnWriteArrayList<>();
    private SshServer server;
    private int port;

    private TestSshServer(KeyPair hostKey, KeyPair clientKeyPair, Path clientKey, String user) {
        this.hostKey = hostKey;
        this.clientKeyPair = clientKeyPair;
        this.clientKey = clientKey;
        this.user = user;
    }

    public static TestSshServer start(Path dir) throws IOException, GeneralSecurityException {
        // ed25519, as ssh-keygen makes by default: the key type users have
        KeyPair clientKeyPair = KeyPairGenerator.getInstance("Ed25519", new BouncyCastleProvider())
                .generateKeyPair();
        TestSshServer s = new TestSshServer(
                newKeyPair(),
                clientKeyPair,
                writePrivateKey(clientKeyPair, dir.resolve("id_ed25519")),
                System.getProperty("user.name"));
        s.restart();
        return s;
    }

    /** Starts the server (again), on the port it had before if it had one. */
    public void restart() throws IOException {
        SshServer server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(port);
        server.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
        server.setPublickeyAuthenticator(
                (name, key, session) -> name.equals(user) && KeyUtils.compareKeys(key, clientKeyPair.getPublic()));
        server.setPasswordAuthenticator((name, password, session) -> name.equals(user) && password.equals(PASSWORD));
        server.setCommandFactory(
                (channel, command) -> new ProcessShellFactory(command, "/bin/sh", "-c", command).createShell(channel));
        server.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
        server.setFileSystemFactory(NativeFileSystemFactory.INSTANCE);
        server.addSessionListener(new SessionListener() {
            @Override
            public void sessionCreated(Session session) {
                logins.incrementAndGet();
            }

            @Override
            public void sessionDisconnect(
                    Session session, int reason, String message, String language, boolean initiator) {
                if (!initiator) {
                    disconnectsReceived.add(reason);
                }
            }
        });
        server.start();
        this.server = server;
        this.port = server.getPort();
    }

    /** Stops accepting and drops every session, as a login node going down. */
    public void stop() throws IOException {
        server.stop(true);
    }

    /** EC P-256 keys, for the host and for keys the server does not know. */
    public static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    public static Path writePrivateKey(KeyPair keys, Path file) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(keys, "cairn-test", null, out);
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    /** SSH connections made to this server since it first started. */
    public int connections() {
        return logins.get();
    }

    /** The reason codes of the disconnect messages clients sent (SSH's {@code SSH_MSG_DISCONNECT}), in order. */
    public List<Integer> disconnectsReceived() {
        return List.copyOf(disconnectsReceived);
    }

    /** Sessions open on the server now: connections its clients have not closed. */
    public int openSessions() {
        return server.getActiveSessions().size();
    }

    /** The sessions open on the server now, to give {@link #openedSinceEnded} later. */
    public Set<Session> sessions() {
        return Set.copyOf(server.getActiveSessions());
    }

    /**
     * Whether every session open now was open in {@code before}: those opened since have ended. (A count would
     * not do: a session an earlier test closed may end on the server in the meantime.)
     */
    public boolean openedSinceEnded(Set<Session> before) {
        return before.containsAll(server.getActiveSessions());
    }

    public int port() {
        return port;
    }

    public String user() {
        return user;
    }

    public Path clientKey() {
        return clientKey;
    }

    public KeyPair hostKey() {
        return hostKey;
    }

    /** A computer's {@code transport_params} for this server, its key recorded in {@code knownHosts}. */
    public Map<String, Object> transportParams(Path knownHosts) {
        return Map.of(
                "username",
                user,
                "port",
                port(),
                "key_filename",
                clientKey.toString(),
                "known_hosts",
                knownHosts.toString());
    }

    /** A spec for this server that trusts it on first use, recording it in {@code knownHosts}. */
    public TransportSpec.Ssh spec(Path knownHosts) {
        return TransportSpec.Ssh.withKey("127.0.0.1", user, clientKey)
                .withPort(port())
                .withKnownHosts(knownHosts, HostKeyPolicy.ACCEPT_NEW);
    }

    /** Closes every session from the server's side, as a restarted sshd or a dropped link would. */
    public void dropSessions() {
        server.getActiveSessions().forEach(s -> s.close(true));
    }

    @Override
    public void close() throws IOException {
        server.stop(true);
    }
}
