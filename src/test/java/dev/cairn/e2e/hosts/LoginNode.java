package dev.cairn.e2e.hosts;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The login node of the computer calculation jobs run on: Debian's OpenSSH server ({@code sshd}
 * of {@code openssh-server}) on a {@link Host}, with host and client keys of its own, taking the
 * tests' user by key. It records what the computer sees: each SSH connection with the times it
 * opened and closed (from sshd's log), and each command run through it (a forced command writes
 * it to {@code commands.log} with the time, then runs it with {@code sh -c}; SFTP goes to
 * {@code sftp-server}).
 */
public final class LoginNode implements AutoCloseable {

    private static final String SFTP = "/usr/lib/openssh/sftp-server";

    private final Host host;
    private final Path dir;
    private final HostProcess sshd;

    /** One command run on the computer, and when. */
    public record Command(long millis, String text) {}

    private LoginNode(Host host, Path dir, HostProcess sshd) {
        this.host = host;
        this.dir = dir;
        this.sshd = sshd;
    }

    /** An ed25519 key pair without a passphrase: {@code file} and {@code file.pub}. */
    private static void newKey(Path file) {
        Ip.exec(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", file.toString()));
    }

    /** Makes the keys and configuration in the host's folder and starts sshd on the host's address, port 22. */
    public static LoginNode start(Host host) {
        Path dir = host.dir().resolve("sshd");
        Path sshd = Path.of("/usr/sbin/sshd");
        if (!Files.isExecutable(sshd)) {
            throw new IllegalStateException(
                    "no " + sshd + ": the login node is Debian's openssh-server (source .ci/hosts)");
        }
        try {
            Files.createDirectories(dir);
            // sshd wants its privilege separation folder, which the package's init script makes
            Files.createDirectories(Path.of("/run/sshd"));
            newKey(dir.resolve("host_key"));
            newKey(dir.resolve("id_ed25519"));
            Files.copy(dir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
            String hostKey = Files.readString(dir.resolve("host_key.pub")).strip();
            String[] parts = hostKey.split(" ");
            Files.writeString(dir.resolve("known_hosts"), host.address() + " " + parts[0] + " " + parts[1] + "\n");
            Path shell = dir.resolve("login-command");
            Files.writeString(shell, """
                    #!/bin/sh
                    # the forced command of every session: SFTP as asked, anything else logged, then run
                    case "$SSH_ORIGINAL_COMMAND" in
                      %s|sftp|internal-sftp) exec %s ;;
                    esac
                    printf '%%s %%s\\n' "$(date +%%s%%3N)" "$(printf '%%s' "$SSH_ORIGINAL_COMMAND" | tr '\\n' ' ')" >> %s
                    exec /bin/sh -c "$SSH_ORIGINAL_COMMAND"
                    """.formatted(SFTP, SFTP, dir.resolve("commands.log")));
            Files.setPosixFilePermissions(shell, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.writeString(dir.resolve("sshd_config"), """
                    Port 22
                    ListenAddress %s
                    HostKey %s
                    PidFile none
                    AuthorizedKeysFile %s
                    PermitRootLogin prohibit-password
                    PasswordAuthentication no
                    KbdInteractiveAuthentication no
                    UsePAM no
                    StrictModes no
                    LogLevel VERBOSE
                    MaxStartups 500
                    MaxSessions 500
                    Subsystem sftp %s
                    ForceCommand %s
                    """.formatted(
                            host.address(), dir.resolve("host_key"), dir.resolve("authorized_keys"), SFTP, shell));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up the login node in " + dir, e);
        }
        HostProcess process = host.start(
                "sshd",
                List.of(
                        sshd.toString(),
                        "-D",
                        "-e",
                        "-f",
                        dir.resolve("sshd_config").toString()));
        process.awaitLine(l -> l.contains("Server listening on"), "sshd listening", Duration.ofSeconds(30));
        return new LoginNode(host, dir, process);
    }

    /**
     * The settings of a computer on this login node ({@code core.ssh} transport, the tests'
     * user and key, its host key known in advance), with its jobs' work directories under
     * {@code workdir}.
     */
    public Map<String, Object> computerSettings(Path workdir) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("workdir", workdir.toString());
        settings.put(
                "transport_params",
                Map.of(
                        "username", System.getProperty("user.name"),
                        "port", 22,
                        "key_filename", dir.resolve("id_ed25519").toString(),
                        "known_hosts", dir.resolve("known_hosts").toString(),
                        "host_key_policy", "strict"));
        return settings;
    }

    /** Every SSH connection that logged in so far, in the order they opened. */
    public List<SshdConnections.Connection> connections() {
        return SshdConnections.of(sshd.lines());
    }

    /** What sshd said of the connection (its lines naming the connection's peer and port). */
    public List<String> linesOf(SshdConnections.Connection connection) {
        String peer = connection.peer() + " port " + connection.port();
        return sshd.lines().stream()
                .map(HostProcess.Line::text)
                .filter(t -> t.contains(peer + " ") || t.contains(peer + ":") || t.endsWith(peer))
                .toList();
    }

    /**
     * Shell text for a computer's {@code prepend_text} that records each job's start in this
     * node's run log: the time and the job's work directory, one line per run of a job script.
     */
    public String recordJobRun() {
        return "echo \"$(date +%s%3N) $PWD\" >> " + dir.resolve("runs.log");
    }

    /** The work directories of the job scripts that ran, one per run, in the order they started. */
    public List<String> jobRuns() {
        List<String> runs = new ArrayList<>();
        for (Command line : read(dir.resolve("runs.log"))) {
            runs.add(line.text());
        }
        return runs;
    }

    /** When each job script started (milliseconds since the epoch), in the order they did. */
    public List<Long> jobStarts() {
        return read(dir.resolve("runs.log")).stream().map(Command::millis).toList();
    }

    /** Every command run through the node so far (SFTP sessions not included). */
    public List<Command> commands() {
        return read(dir.resolve("commands.log"));
    }

    /** Lines of {@code time text}. */
    private static List<Command> read(Path file) {
        try {
            List<Command> all = new ArrayList<>();
            for (String line : Files.readAllLines(file, UTF_8)) {
                int space = line.indexOf(' ');
                if (space > 0) {
                    all.add(new Command(Long.parseLong(line.substring(0, space)), line.substring(space + 1)));
                }
            }
            return all;
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Host host() {
        return host;
    }

    public HostProcess process() {
        return sshd;
    }

    @Override
    public void close() {
        sshd.close();
    }
}
