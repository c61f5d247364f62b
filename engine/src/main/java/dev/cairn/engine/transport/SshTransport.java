package dev.cairn.engine.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;

/**
 * A computer reached over SSH (Apache MINA SSHD): commands on exec channels, files over SFTP,
 * all on one session that {@link #close()} ends. A dropped connection fails the call under way
 * with a transient {@link TransportException}; the next call connects again.
 */
public final class SshTransport implements Transport {

    private static final System.Logger LOG = System.getLogger(SshTransport.class.getName());

    /** How long killing a timed-out command may take before we give up on it. */
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

    /** Signal numbers (Linux, and the same on the BSDs for these) for a command that died of one. */
    private static final Map<String, Integer> SIGNALS =
            Map.of("HUP", 1, "INT", 2, "QUIT", 3, "ABRT", 6, "KILL", 9, "SEGV", 11, "PIPE", 13, "ALRM", 14, "TERM", 15);

    private final SshConnection connection;
    private final SftpFiles files;

    private SshTransport(SshConnection connection) {
        this.connection = connection;
        this.files = new SftpFiles(connection::sftp, connection.where());
    }

    /**
     * Connects and authenticates. Throws a {@link TransportException}: transient if the host
     * could not be reached, not if it refused the key, password or host key.
     */
    public static SshTransport connect(TransportSpec.Ssh spec) {
        return new SshTransport(SshConnection.open(spec));
    }

    /**
     * Runs {@code command} with the remote {@code /bin/sh}, after {@code cd workdir}. On timeout
     * the remote shell and everything it started are killed: without a terminal, closing the
     * channel would leave them running.
     */
    @Override
    public CommandResult exec(String command, String workdir, Duration timeout) {
        Objects.requireNonNull(command, "command");
        LocalTransport.requirePositive(timeout);
        String dir = workdir == null ? null : PosixPaths.absolute(workdir);
        String what = Commands.describe(command) + " on " + connection.where();
        long deadline = System.nanoTime() + timeout.toNanos();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ChannelExec channel = null;
        try {
            channel = connection.session().createExecChannel(new RemoteCommand(command, dir).text());
            channel.setOut(out);
            channel.setErr(err);
            channel.open().verify(timeout);
            // end of stdin: a command that reads it gets end-of-file instead of waiting for ever
            channel.getInvertedIn().close();
            Set<ClientChannelEvent> events =
                    channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), remaining(deadline));
            if (events.contains(ClientChannelEvent.TIMEOUT)) {
                kill(RemoteCommand.pid(err.toByteArray()), what);
                throw new TransportException(
                        what + " did not finish within " + timeout + "; it was killed with the processes it started",
                        true,
                        null);
            }
            CommandResult result = new CommandResult(
                    exitCode(channel, what),
                    out.toString(StandardCharsets.UTF_8),
                    RemoteCommand.stderr(err.toByteArray()));
            if (!result.ok() && dir != null && !files.isDirectory(dir)) {
                throw new TransportException("cannot run " + what + " in " + dir + ": no such directory", false, null);
            }
            return result;
        } catch (IOException e) {
            throw Failures.remote("cannot run " + what, e);
        } finally {
            if (channel != null) {
                channel.close(true);
            }
        }
    }

    /** The exit status; 128 + n for a command killed by signal n, as a shell reports it. */
    private static int exitCode(ChannelExec channel, String what) {
        Integer status = channel.getExitStatus();
        if (status != null) {
            return status;
        }
        String signal = channel.getExitSignal();
        if (signal != null) {
            return 128 + SIGNALS.getOrDefault(signal, 0);
        }
        throw new TransportException(what + " ended without an exit status: the connection was lost", true, null);
    }

    /** Best effort: a command that outlives this is logged, not thrown over the timeout itself. */
    private void kill(long pid, String what) {
        if (pid < 0) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "{0} timed out before it reported its process id; closing its channel is all that can be done",
                    what);
            return;
        }
        try (ChannelExec killer = connection.session().createExecChannel(RemoteCommand.killTree(pid))) {
            killer.setOut(OutputStream.nullOutputStream());
            killer.setErr(OutputStream.nullOutputStream());
            killer.open().verify(KILL_TIMEOUT);
            killer.getInvertedIn().close();
            if (killer.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), KILL_TIMEOUT)
                    .contains(ClientChannelEvent.TIMEOUT)) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "killing process {0} of timed-out {1} did not finish within {2}",
                        pid,
                        what,
                        KILL_TIMEOUT);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot kill process " + pid + " of timed-out " + what, e);
        }
    }

    private static Duration remaining(long deadlineNanos) {
        return Duration.ofNanos(Math.max(1_000_000, deadlineNanos - System.nanoTime()));
    }

    @Override
    public void mkdirs(String path) {
        files.mkdirs(path);
    }

    @Override
    public void write(String path, byte[] content) {
        files.write(path, content);
    }

    @Override
    public void put(Path local, String path) {
        files.put(local, path);
    }

    @Override
    public byte[] read(String path) {
        return files.read(path);
    }

    @Override
    public void get(String path, Path local) {
        files.get(path, local);
    }

    @Override
    public boolean exists(String path) {
        return files.exists(path);
    }

    @Override
    public boolean isDirectory(String path) {
        return files.isDirectory(path);
    }

    @Override
    public List<String> list(String directory) {
        return files.list(directory);
    }

    @Override
    public void remove(String path) {
        files.remove(path);
    }

    @Override
    public void close() {
        connection.close();
    }

    @Override
    public String toString() {
        return "ssh " + connection.where();
    }
}
