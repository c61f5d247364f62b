package dev.cairn.engine.transport;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one command on this machine with {@code /bin/sh -c}. Both output pipes are drained
 * while the command runs: a command that fills one pipe's buffer (64 KiB on Linux) while
 * nobody reads it would block for ever. On timeout the shell and every process below it are
 * killed, so no orphan keeps running (and writing) after the caller gave up.
 */
final class LocalCommand {

    /** How long a killed process may take to be reaped before we stop waiting for it. */
    private static final Duration REAP = Duration.ofSeconds(5);

    private LocalCommand() {
    }

    static CommandResult run(String command, Path workdir, Map<String, String> environment, Duration timeout) {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command).directory(workdir.toFile())
            // no stdin: a command that reads it gets end-of-file instead of waiting for ever
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().putAll(environment);
        long deadline = System.nanoTime() + timeout.toNanos();
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw Failures.local("cannot start /bin/sh for " + describe(command) + " in " + workdir + " on this machine",
                workdir.toString(), e);
        }
        Drain out = Drain.start(process.getInputStream());
        Drain err = Drain.start(process.getErrorStream());
        try {
            if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                killTree(process.toHandle());
                process.waitFor(REAP.toMillis(), TimeUnit.MILLISECONDS);
                throw new TransportException(describe(command) + " on this machine did not finish within " + timeout
                    + "; it was killed with the processes it started", true, null);
            }
            // The shell has exited, but a background job it started may still hold the pipes open.
            if (!out.await(deadline) || !err.await(deadline))
                throw new TransportException(describe(command) + " on this machine exited with " + process.exitValue()
                    + " but a process it left in the background kept its stdout or stderr open past the timeout of "
                    + timeout + "; redirect the output of background jobs", true, null);
            return new CommandResult(process.exitValue(), out.text(), err.text());
        } catch (InterruptedException e) {
            killTree(process.toHandle());
            Thread.currentThread().interrupt();
            throw new TransportException("interrupted while running " + describe(command) + " on this machine; killed it",
                true, e);
        }
    }

    /**
     * Kills {@code root} and its descendants, each after listing its children: killed first, a
     * parent can start no more, and its children, re-parented once it is gone, could no longer
     * be found through it.
     */
    static void killTree(ProcessHandle root) {
        List<ProcessHandle> children = root.children().toList();
        root.destroyForcibly();
        children.forEach(LocalCommand::killTree);
    }

    /** The command for messages: quoted, and cut short if long. */
    static String describe(String command) {
        String oneLine = command.replace('\n', ' ');
        return "command '" + (oneLine.length() > 200 ? oneLine.substring(0, 200) + "..." : oneLine) + "'";
    }

    /** Reads a pipe to its end on a virtual thread of its own. */
    private record Drain(ByteArrayOutputStream bytes, Thread thread) {

        static Drain start(InputStream pipe) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            Thread thread = Thread.ofVirtual().name("cairn-local-exec-drain").start(() -> {
                try (pipe) {
                    pipe.transferTo(bytes);
                } catch (IOException e) {
                    // the pipe broke because the process was killed: keep what was read
                }
            });
            return new Drain(bytes, thread);
        }

        boolean await(long deadlineNanos) throws InterruptedException {
            return thread.join(Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())));
        }

        String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }
}
