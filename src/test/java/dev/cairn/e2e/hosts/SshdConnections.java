package dev.cairn.e2e.hosts;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SSH connections in the log of OpenSSH's {@code sshd} at {@code LogLevel VERBOSE}: when each
 * logged in and when it ended, by its peer's address and port.
 */
public final class SshdConnections {

    /** One SSH connection: from where, and when it logged in and ended (0: not ended). */
    public record Connection(String peer, int port, long opened, long closed) {}

    private static final Pattern ACCEPTED = Pattern.compile("Accepted publickey for \\S+ from (\\S+) port (\\d+)");
    /** sshd names the connection's user in some of the lines that end it, once it is known. */
    private static final String PEER = "(?:(?:authenticating )?user \\S+ )?(\\S+) port (\\d+)";
    /**
     * Every way a connection ends (not one of its sessions: "Close session" ends one command or
     * SFTP channel of a connection that may stay open for the next): the client's disconnect,
     * the socket closed or reset, a read or write that failed (sshd's fatal "Connection from
     * PEER: reason"), a timeout, and the line of an orderly end.
     */
    private static final Pattern CLOSED = Pattern.compile("(?:Disconnected from |Received disconnect from "
            + "|Connection (?:closed|reset) by |Read error from remote host |Closing connection to "
            + "|Timeout, client not responding from )" + PEER
            + "|Connection from " + PEER + "(?::| timed out)");

    private SshdConnections() {}

    /** Every connection that logged in, in the order they did. */
    static List<Connection> of(List<HostProcess.Line> lines) {
        Map<String, Integer> open = new HashMap<>();
        List<Connection> all = new ArrayList<>();
        for (HostProcess.Line line : lines) {
            Matcher closed = CLOSED.matcher(line.text());
            if (closed.find()) {
                String peer = closed.group(1) != null ? closed.group(1) : closed.group(3);
                String port = closed.group(1) != null ? closed.group(2) : closed.group(4);
                Integer i = open.remove(peer + ":" + port);
                if (i != null) {
                    Connection c = all.get(i);
                    all.set(i, new Connection(c.peer(), c.port(), c.opened(), line.millis()));
                }
                continue;
            }
            Matcher accepted = ACCEPTED.matcher(line.text());
            if (accepted.find()) {
                open.put(accepted.group(1) + ":" + accepted.group(2), all.size());
                all.add(new Connection(accepted.group(1), Integer.parseInt(accepted.group(2)), line.millis(), 0));
            }
        }
        return all;
    }

    /** The most connections open at once. */
    static int peak(List<Connection> connections) {
        List<long[]> events = new ArrayList<>();
        for (Connection c : connections) {
            events.add(new long[] {c.opened(), 1});
            events.add(new long[] {c.closed() == 0 ? Long.MAX_VALUE : c.closed(), -1});
        }
        // at equal times a close counts before an open: sshd logged them in that order
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int now = 0;
        int peak = 0;
        for (long[] e : events) {
            now += (int) e[1];
            peak = Math.max(peak, now);
        }
        return peak;
    }
}
