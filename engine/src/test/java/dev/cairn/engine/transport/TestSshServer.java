package dev.cairn.engine.transport;

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

import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.file.nativefs.NativeFileSystemFactory;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.shell.ProcessShellFactory;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * An SSH server in this JVM on a free port of 127.0.0.1, as a computer would run OpenSSH: exec
 * requests run as real processes with {@code /bin/sh -c} (OpenSSH runs the login shell with
 * {@code -c}), SFTP serves this machine's file system. It accepts one user with a generated
 * ed25519 key, written to a file in OpenSSH format as ssh-keygen would, or with {@link #PASSWORD}.
 */
final class TestSshServer implements AutoCloseable {

    static final String PASSWORD = "correct horse";

    private final SshServer server;
    private final KeyPair hostKey;
    private final Path clientKey;
    private final String user;

    private TestSshServer(SshServer server, KeyPair hostKey, Path clientKey, String user) {
        this.server = server;
        this.hostKey = hostKey;
        this.clientKey = clientKey;
        this.user = user;
    }

    static TestSshServer start(Path dir) throws IOException, GeneralSecurityException {
        String user = System.getProperty("user.name");
        KeyPair hostKey = newKeyPair();
        // ed25519, as ssh-keygen makes by default: the key type users have
        KeyPair clientKeyPair = KeyPairGenerator.getInstance("Ed25519", new BouncyCastleProvider()).generateKeyPair();
        Path clientKey = writePrivateKey(clientKeyPair, dir.resolve("id_ed25519"));

        SshServer server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
        server.setPublickeyAuthenticator(
            (name, key, session) -> name.equals(user) && KeyUtils.compareKeys(key, clientKeyPair.getPublic()));
        server.setPasswordAuthenticator((name, password, session) -> name.equals(user) && password.equals(PASSWORD));
        server.setCommandFactory(
            (channel, command) -> new ProcessShellFactory(command, "/bin/sh", "-c", command).createShell(channel));
        server.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
        server.setFileSystemFactory(NativeFileSystemFactory.INSTANCE);
        server.start();
        return new TestSshServer(server, hostKey, clientKey, user);
    }

    /** EC P-256 keys, for the host and for keys the server does not know. */
    static KeyPair newKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    static Path writePrivateKey(KeyPair keys, Path file) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(keys, "cairn-test", null, out);
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    int port() {
        return server.getPort();
    }

    String user() {
        return user;
    }

    Path clientKey() {
        return clientKey;
    }

    KeyPair hostKey() {
        return hostKey;
    }

    /** A spec for this server that trusts it on first use, recording it in {@code knownHosts}. */
    TransportSpec.Ssh spec(Path knownHosts) {
        return TransportSpec.Ssh.withKey("127.0.0.1", user, clientKey).withPort(port())
            .withKnownHosts(knownHosts, HostKeyPolicy.ACCEPT_NEW);
    }

    /** Closes every session from the server's side, as a restarted sshd or a dropped link would. */
    void dropSessions() {
        server.getActiveSessions().forEach(s -> s.close(true));
    }

    @Override
    public void close() throws IOException {
        server.stop(true);
    }
}
