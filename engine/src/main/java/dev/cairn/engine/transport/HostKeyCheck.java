package dev.cairn.engine.transport;

import java.net.SocketAddress;
import java.security.PublicKey;

import org.apache.sshd.client.keyverifier.AcceptAllServerKeyVerifier;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.keyverifier.ServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;

/**
 * Checks host keys against a computer's known_hosts file, and keeps the reason of the last
 * refusal: the client reports a refused key only as a failed authentication, and the session
 * that saw it may already be closed, its attributes gone, when the failure is looked at.
 */
final class HostKeyCheck implements ServerKeyVerifier {

    private final TransportSpec.Ssh spec;
    private final KnownHostsServerKeyVerifier knownHosts;
    private volatile String refusal;

    HostKeyCheck(TransportSpec.Ssh spec) {
        this.spec = spec;
        ServerKeyVerifier unknownHosts = spec.hostKeyPolicy() == HostKeyPolicy.ACCEPT_NEW
                ? AcceptAllServerKeyVerifier.INSTANCE
                : RejectAllServerKeyVerifier.INSTANCE;
        this.knownHosts = new KnownHostsServerKeyVerifier(unknownHosts, spec.knownHosts());
    }

    @Override
    public boolean verifyServerKey(ClientSession session, SocketAddress address, PublicKey key) {
        if (knownHosts.verifyServerKey(session, address, key)) {
            return true;
        }
        refusal = "the " + KeyUtils.getKeyType(key) + " " + KeyUtils.getFingerPrint(key) + " host key of "
                + spec.host() + ":" + spec.port() + " is refused: "
                + (spec.hostKeyPolicy() == HostKeyPolicy.STRICT
                        ? "it is not in " + spec.knownHosts()
                                + " (host key policy strict), or differs from the one there"
                        : "it differs from the one in " + spec.knownHosts())
                + "; if the host's key really changed, remove its line from that file";
        return false;
    }

    /** Why the last connection's host key was refused, or null if it was not. */
    String refusal() {
        return refusal;
    }

    /** Clears the last refusal before a new connection. */
    void forget() {
        refusal = null;
    }
}
