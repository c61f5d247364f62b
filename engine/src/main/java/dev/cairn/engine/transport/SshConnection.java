package dev.cairn.engine.transport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.future.AuthFuture;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClientFactory;

/**
 * One SSH session to a host, with one SFTP channel on it, both reopened on the next use after
 * the connection dropped: a transport task that failed transiently then succeeds when tried
 * again. The client reads no {@code ~/.ssh/config} and offers no key but the spec's, so what
 * a computer's configuration says is all that is used.
 */
final class SshConnection implements AutoCloseable {

    /** Keeps NAT and firewall state of a quiet connection alive between the engine's polls. */
    private static final Duration HEARTBEAT = Duration.ofSeconds(30);
    /** How long closing waits for the socket to be closed; a connection limit counts it open until then. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final TransportSpec.Ssh spec;
    private final List<KeyPair> keys;
    private final SshClient client;
    private final HostKeyCheck hostKeys;
    private ClientSession session;
    private SftpClient sftp;
    private boolean closed;

    private SshConnection(TransportSpec.Ssh spec, List<KeyPair> keys, SshClient client, HostKeyCheck hostKeys) {
        this.spec = spec;
        this.keys = keys;
        this.client = client;
        this.hostKeys = hostKeys;
    }

    /** Connects and authenticates now, so that a wrong host, key or known_hosts entry shows at once. */
    static SshConnection open(TransportSpec.Ssh spec) {
        List<KeyPair> keys = spec.keyFile() == null ? List.of() : loadKeys(spec);
        SshClient client = SshClient.setUpDefaultClient();
        client.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY);
        client.setKeyIdentityProvider(KeyIdentityProvider.EMPTY_KEYS_PROVIDER);
        HostKeyCheck hostKeys = new HostKeyCheck(spec);
        client.setServerKeyVerifier(hostKeys);
        CoreModuleProperties.HEARTBEAT_INTERVAL.set(client, HEARTBEAT);
        client.start();
        SshConnection connection = new SshConnection(spec, keys, client, hostKeys);
        try {
            connection.session();
            return connection;
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    String where() {
        return spec.where();
    }

    /** The open session, connecting again if the last one was closed. */
    synchronized ClientSession session() {
        if (closed) {
            throw new IllegalStateException("the SSH transport to " + where() + " is closed");
        }
        if (session == null || !session.isOpen()) {
            session = connect();
        }
        return session;
    }

    /** The SFTP channel of the open session, opened again with it. */
    synchronized SftpClient sftp() {
        ClientSession current = session();
        if (sftp == null || !sftp.isOpen() || sftp.getClientSession() != current) {
            try {
                sftp = SftpClientFactory.instance().createSftpClient(current);
            } catch (IOException e) {
                throw Failures.remote("cannot open an SFTP channel to " + where(), e);
            }
        }
        return sftp;
    }

    private ClientSession connect() {
        Duration timeout = spec.connectTimeout();
        ClientSession s;
        hostKeys.forget();
        try {
            s = client.connect(spec.user(), spec.host(), spec.port())
                    .verify(timeout)
                    .getSession();
        } catch (IOException e) {
            throw refusedHostKeyOr(new TransportException("cannot connect to " + where() + ": " + message(e), true, e));
        }
        try {
            keys.forEach(s::addPublicKeyIdentity);
            if (spec.password() != null) {
                s.addPasswordIdentity(spec.password());
            }
            AuthFuture auth = s.auth();
            if (!auth.await(timeout)) {
                throw new TransportException(
                        "no answer from " + where() + " within " + timeout + " while authenticating", true, null);
            }
            if (auth.isSuccess()) {
                return s;
            }
            // the key was checked before authentication began: a refusal is known by now
            if (hostKeys.refusal() != null) {
                throw new TransportException(hostKeys.refusal(), false, auth.getException());
            }
            if (!s.isOpen()) {
                throw new TransportException(
                        "the connection to " + where() + " closed while authenticating: "
                                + message(auth.getException()),
                        true,
                        auth.getException());
            }
            throw new TransportException(
                    where() + " refused to authenticate with " + credentials() + ": " + message(auth.getException()),
                    false,
                    auth.getException());
        } catch (IOException e) {
            s.close(true);
            throw refusedHostKeyOr(new TransportException(
                    "lost the connection to " + where() + " while authenticating: " + message(e), true, e));
        } catch (RuntimeException e) {
            s.close(true);
            throw e;
        }
    }

    /** A refused host key closes the connection; that is said as such, and trying again will not help. */
    private TransportException refusedHostKeyOr(TransportException lost) {
        String refused = hostKeys.refusal();
        return refused == null ? lost : new TransportException(refused, false, lost.getCause());
    }

    private String credentials() {
        String key = spec.keyFile() == null ? null : "key " + spec.keyFile();
        return key == null ? "a password" : spec.password() == null ? key : key + " and a password";
    }

    private static List<KeyPair> loadKeys(TransportSpec.Ssh spec) {
        Path file = spec.keyFile();
        List<KeyPair> keys = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            SecurityUtils.loadKeyPairIdentities(null, NamedResource.ofName(file.toString()), in, null)
                    .forEach(keys::add);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            String reason = e instanceof NoSuchFileException
                    ? "no such file"
                    : message(e) + " (keys with a passphrase are not supported)";
            throw new TransportException(
                    "cannot load the private key " + file + " for " + spec.where() + ": " + reason, false, e);
        }
        if (keys.isEmpty()) {
            throw new TransportException("no private key found in " + file + " for " + spec.where(), false, null);
        }
        return keys;
    }

    private static String message(Throwable e) {
        if (e == null) {
            return "no reason given";
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root.getMessage();
        return text == null || text.isBlank() ? root.getClass().getSimpleName() : text;
    }

    @Override
    public synchronized void close() {
        closed = true;
        try {
            if (sftp != null) {
                sftp.close();
            }
        } catch (IOException e) {
            // the session goes below anyway
        }
        if (session != null) {
            try {
                // SSH's disconnect message first, as OpenSSH's client sends it: the server ends the connection
                // as asked, where a socket closed under it logs a reset; MINA closes the session once it is sent
                session.disconnect(SshConstants.SSH2_DISCONNECT_BY_APPLICATION, "closed by Cairn");
                session.waitFor(EnumSet.of(ClientSession.ClientSessionEvent.CLOSED), CLOSE_WAIT);
            } catch (IOException | RuntimeException e) {
                // a connection already lost has no one to tell: closed below
            }
            try {
                // closing is asynchronous; the caller releases the connection's slot after this returns
                if (session.isOpen()) {
                    session.close(true).await(CLOSE_WAIT);
                }
            } catch (IOException e) {
                // closed all the same, or the client's stop below ends it
            }
        }
        client.stop();
    }
}
