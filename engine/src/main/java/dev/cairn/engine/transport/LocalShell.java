package dev.cairn.engine.transport;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A {@code /bin/sh} kept running to run commands one at a time, each in a subshell of its own (a
 * {@code cd} or a variable set by one command does not reach the next). Starting a process from
 * the JVM costs a helper process and an exec of the shell; a busy worker starts one per job
 * submission, so a shell that is already there takes a fork instead.
 * <p>
 * A command's stdout and stderr go to two files of the shell's own directory, read back and
 * deleted once it exits, and only the line that reports its exit code comes through the shell's
 * pipe. So a job left in the background by one command cannot write into the output of the
 * next, and output of any size never blocks the command. The files are on {@code /dev/shm}
 * where that exists (memory, no disk), else in {@code java.io.tmpdir}, in a folder named after
 * this JVM's pid ({@code cairn-shell-<pid>-...}), so a folder says which JVM's shell made it.
 * <p>
 * Shells are kept by {@link LocalShells}, which ends them when its owner closes.
 */
final class LocalShell implements AutoCloseable {

    /** The name of the thread that reads a shell's stdout (one per shell). */
    private static final String READER_THREAD = "cairn-local-shell";

    /** The start of a shell's folder name: {@code cairn-shell-<pid of this JVM>-}. */
    private static final String FOLDER_PREFIX =
            "cairn-shell-" + ProcessHandle.current().pid() + "-";

    /** What the reader thread queues when the shell's stdout ends. */
    private static final String ENDED = "\0ended";

    private final Map<String, String> environment;
    private final Process process;
    private final OutputStream commands;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Path outputs;
    private final String marker;
    private final Thread reader;
    /** Set when {@link #close} ends the shell, so a command it cuts short says why. */
    private volatile boolean closing;

    /** Starts a shell with this JVM's environment plus {@code environment}. */
    LocalShell(Map<String, String> environment) throws IOException {
        this.environment = environment;
        this.outputs = Files.createTempDirectory(scratchRoot(), FOLDER_PREFIX);
        this.marker = "cairn-done-"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        ProcessBuilder builder = new ProcessBuilder("/bin/sh").redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(environment);
        try {
            this.process = builder.start();
        } catch (IOException e) {
            deleteQuietly(outputs);
            throw e;
        }
        this.commands = process.getOutputStream();
        // The shell removes its directory when it ends, also when it ends because this JVM was killed
        // (its input closes); close() covers a shell killed outright. Commands run in subshells, so
        // none can change the variable.
        try {
            commands.write(
                    ("cairn_dir=" + PosixPaths.quote(outputs.toString()) + "\ntrap 'rm -rf -- \"$cairn_dir\"' EXIT\n")
                            .getBytes(StandardCharsets.UTF_8));
            commands.flush();
        } catch (IOException e) {
            process.destroyForcibly();
            deleteQuietly(outputs);
            throw e;
        }
        var stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        // a platform thread: it blocks on the pipe for the shell's whole life
        this.reader = Thread.ofPlatform().daemon().name(READER_THREAD).start(() -> {
            try (stdout) {
                for (String line; (line = stdout.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the shell was killed
            }
            lines.add(ENDED);
        });
    }

    Map<String, String> environment() {
        return environment;
    }

    /**
     * Runs {@code command} with {@code /bin/sh} semantics in {@code workdir}, no input. A
     * {@link TransportException} means the shell may not be used again; {@link ShellGone} that
     * it ran nothing.
     */
    CommandResult execute(String command, Path workdir, Duration timeout) throws ShellGone {
        Path out = outputs.resolve("out");
        Path err = outputs.resolve("err");
        // The command is data (one quoted word) until eval reads it, so no text of it can end the wrapper.
        String wrapped = "c=" + PosixPaths.quote(command) + "\n(cd -- " + PosixPaths.quote(workdir.toString())
                + " && eval \"$c\") < /dev/null > " + PosixPaths.quote(out.toString()) + " 2> "
                + PosixPaths.quote(err.toString()) + "\necho \"" + marker + " $?\"\n";
        try {
            commands.write(wrapped.getBytes(StandardCharsets.UTF_8));
            commands.flush();
        } catch (IOException e) {
            throw new ShellGone(e);
        }
        int exitCode = awaitExitCode(command, timeout);
        return new CommandResult(exitCode, takeText(out, command), takeText(err, command));
    }

    private int awaitExitCode(String command, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    killTree();
                    throw new TransportException(
                            Commands.describe(command) + " on this machine did not finish within " + timeout
                                    + "; it was killed with the processes it started",
                            true,
                            null);
                }
                if (line.equals(ENDED)) {
                    throw new TransportException(
                            "/bin/sh on this machine ended while running " + Commands.describe(command)
                                    + (closing ? " (its transports were closed)" : " (killed from outside?)"),
                            true,
                            null);
                }
                if (line.startsWith(marker + " ")) {
                    return Integer.parseInt(line.substring(marker.length() + 1));
                }
            }
        } catch (InterruptedException e) {
            killTree();
            Thread.currentThread().interrupt();
            throw new TransportException(
                    "interrupted while running " + Commands.describe(command) + " on this machine; killed it", true, e);
        }
    }

    /** A command's output file, read and deleted (a background job still writing keeps its own, unlinked copy). */
    private static String takeText(Path file, String command) {
        try {
            // decoded leniently, as a pipe's bytes were: output that is not UTF-8 is no failure
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            Files.delete(file);
            return text;
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw Failures.local(
                    "cannot read the output of " + Commands.describe(command) + " on this machine", file.toString(), e);
        }
    }

    /** The shell and what it runs now; a job a command started in a session of its own lives on. */
    private void killTree() {
        killTree(process.toHandle());
    }

    /**
     * Kills {@code root} and its descendants, each after listing its children: killed first, a
     * parent can start no more, and its children, re-parented once it is gone, could no longer
     * be found through it.
     */
    private static void killTree(ProcessHandle root) {
        List<ProcessHandle> children = root.children().toList();
        root.destroyForcibly();
        children.forEach(LocalShell::killTree);
    }

    /**
     * Ends the shell (end of its input: it finishes the command it runs, if any, and exits),
     * kills it and what it runs after two seconds, and removes its directory. Closing again
     * does nothing more.
     */
    @Override
    public void close() {
        closing = true;
        try {
            commands.close();
        } catch (IOException e) {
            // it is gone already
        }
        if (!waitFor(Duration.ofSeconds(2))) {
            killTree();
            waitFor(Duration.ofSeconds(2));
        }
        deleteQuietly(outputs);
        // the shell's stdout is closed now, so its reader ends at once
        try {
            reader.join(Duration.ofSeconds(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean waitFor(Duration d) {
        try {
            return process.waitFor(d.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Path scratchRoot() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    private static void deleteQuietly(Path dir) {
        for (String name : new String[] {"out", "err"}) {
            new File(dir.toFile(), name).delete();
        }
        dir.toFile().delete();
    }

    /** The shell could not be given the command: it ran nothing. */
    static final class ShellGone extends Exception {
        ShellGone(IOException cause) {
            super(cause);
        }
    }
}
