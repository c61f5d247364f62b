package dev.cairn.e2e.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.cairn.e2e.hosts.SshdConnections.Connection;

/** Connections read from sshd's log, in the forms OpenSSH 9.2 writes at {@code LogLevel VERBOSE}. */
class SshdConnectionsTest {

    private static final String FROM = "10.231.0.7 port 40112";

    private static List<HostProcess.Line> lines(String... texts) {
        List<HostProcess.Line> lines = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            lines.add(new HostProcess.Line(1000L * (i + 1), texts[i]));
        }
        return lines;
    }

    private static List<HostProcess.Line> loginThen(String... rest) {
        List<String> all = new ArrayList<>(List.of(
                "Connection from " + FROM + " on 10.231.0.2 port 22 rdomain \"\"",
                "Postponed publickey for root from " + FROM + " ssh2 [preauth]",
                "Accepted publickey for root from " + FROM + " ssh2: ED25519 SHA256:FOEX4AkrG2436cJn8W6U8EZ1GQK2HchC",
                "Starting session: command for root from " + FROM + " id 0",
                "Close session: user root from " + FROM + " id 0"));
        all.addAll(List.of(rest));
        return lines(all.toArray(String[]::new));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Received disconnect from " + FROM + ":11: disconnected by user",
                "Disconnected from user root " + FROM,
                "Connection closed by " + FROM,
                "Connection reset by user root " + FROM,
                "Read error from remote host " + FROM + ": Connection reset by peer",
                "ssh_dispatch_run_fatal: Connection from user root " + FROM + ": Broken pipe",
                "Connection from user root " + FROM + " timed out",
                "Timeout, client not responding from user root " + FROM,
                "Closing connection to " + FROM,
            })
    void everyWayAConnectionEndsEndsIt(String end) {
        List<Connection> connections =
                SshdConnections.of(loginThen(end, "Transferred: sent 3204, received 3452 bytes"));
        assertEquals(List.of(new Connection("10.231.0.7", 40112, 3000, 6000)), connections);
    }

    @Test
    void aConnectionStaysOpenThroughTheEndOfItsSessionsAndItsOwnStartLine() {
        List<Connection> connections = SshdConnections.of(loginThen("Starting session: subsystem 'sftp' for root"));
        assertEquals(List.of(new Connection("10.231.0.7", 40112, 3000, 0)), connections);
    }

    @Test
    void anEndIsCountedOnceAndOnlyForItsOwnPort() {
        List<Connection> connections = SshdConnections.of(lines(
                "Accepted publickey for root from 10.231.0.7 port 1 ssh2: ED25519 x",
                "Accepted publickey for root from 10.231.0.7 port 11 ssh2: ED25519 x",
                "Connection closed by 10.231.0.7 port 11",
                "Closing connection to 10.231.0.7 port 11",
                "Connection closed by authenticating user root 10.231.0.6 port 1 [preauth]"));
        assertEquals(
                List.of(new Connection("10.231.0.7", 1, 1000, 0), new Connection("10.231.0.7", 11, 2000, 3000)),
                connections);
    }

    @Test
    void thePeakCountsAnEndBeforeAnOpenAtTheSameTimeAndAnOpenConnectionToTheEnd() {
        assertEquals(
                2,
                SshdConnections.peak(List.of(
                        new Connection("a", 1, 1000, 2000),
                        new Connection("b", 2, 2000, 0),
                        new Connection("c", 3, 5000, 6000))));
        assertEquals(
                3,
                SshdConnections.peak(List.of(
                        new Connection("a", 1, 1000, 0),
                        new Connection("b", 2, 2000, 0),
                        new Connection("c", 3, 5000, 6000))));
    }
}
