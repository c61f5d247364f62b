package dev.cairn.cli.local;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;

/**
 * One server or worker JVM this command line runs in the background on this host, known by its pid
 * file and log file under the data directory: {@code server.pid} and {@code server.log}, or
 * {@code workers/worker-N.pid} and {@code workers/worker-N.log}. A pid file whose process is gone, or
 * is no Cairn server any more (the pid was reused), counts as none and is removed.
 */
public final class LocalRun {

    private static final Pattern WORKER_PID = Pattern.compile("worker-(\\d+)\\.pid");
    private static final List<String> DETACH = List.of("/usr/bin/setsid", "/bin/setsid");

    private final String name;
    private final Path dataDir;
    private final Path pidFile;
    private final Path log;

    private LocalRun(String name, Path dataDir, Path pidFile, Path log) {
        this.name = name;
        this.dataDir = dataDir;
        this.pidFile = pidFile;
        this.log = log;
    }

    /** The server of the data directory {@code dataDir}. */
    public static LocalRun server(Path dataDir) {
        return new LocalRun("server", dataDir, dataDir.resolve("server.pid"), dataDir.resolve("server.log"));
    }

    /** Worker number {@code n} of {@code dataDir}. */
    public static LocalRun worker(Path dataDir, int n) {
        Path dir = dataDir.resolve("workers");
        return new LocalRun(
                "worker " + n, dataDir, dir.resolve("worker-" + n + ".pid"), dir.resolve("worker-" + n + ".log"));
    }

    /** The numbers of the workers of {@code dataDir} that run, lowest first; stale pid files are removed. */
    public static List<Integer> workers(Path dataDir) {
        Path dir = dataDir.resolve("workers");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Integer> running = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Matcher m = WORKER_PID.matcher(file.getFileName().toString());
                if (m.matches()) {
                    int n = Integer.parseInt(m.group(1));
                    if (worker(dataDir, n).process().isPresent()) {
                        running.add(n);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        running.sort(Comparator.naturalOrder());
        return running;
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    /** The process, while it runs. */
    public Optional<ProcessHandle> process() {
        if (!Files.isRegularFile(pidFile)) {
            return Optional.empty();
        }
        Optional<ProcessHandle> process;
        try {
            long pid = Long.parseLong(
                    Files.readString(pidFile, StandardCharsets.UTF_8).strip());
            process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(this::ofThisDataDir);
        } catch (IOException | NumberFormatException e) {
            process = Optional.empty();
        }
        if (process.isEmpty()) {
            forget();
        }
        return process;
    }

    /** When the process started, if the system says. */
    public static Optional<Instant> started(ProcessHandle process) {
        return process.info().startInstant();
    }

    /**
     * Starts {@code command} in a session of its own (so that a closed terminal or its Ctrl-C leaves it
     * running), its output appended to the log, and writes the pid file.
     */
    public ProcessHandle start(List<String> command, Map<String, String> env) {
        List<String> detached = new ArrayList<>();
        DETACH.stream().filter(p -> Files.isExecutable(Path.of(p))).findFirst().ifPresent(detached::add);
        detached.addAll(command);
        try {
            Files.createDirectories(pidFile.getParent());
            Files.writeString(
                    log,
                    "--- " + Instant.now() + " " + String.join(" ", command) + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            ProcessBuilder builder = new ProcessBuilder(detached)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(
                            ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            builder.environment().clear();
            builder.environment().putAll(env);
            Process process = builder.start();
            Files.writeString(pidFile, process.pid() + "\n", StandardCharsets.UTF_8);
            return process.toHandle();
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "cannot start the " + name + ": " + e.getMessage(), null, e);
        }
    }

    /** Writes the pid file of a process started otherwise (the foreground server of {@code cairn up}). */
    public void record(long pid) {
        try {
            Files.createDirectories(pidFile.getParent());
            Files.writeString(pidFile, pid + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes the pid file. */
    public void forget() {
        try {
            Files.deleteIfExists(pidFile);
        } catch (IOException e) {
            // a pid file that cannot be removed is found stale next time
        }
    }

    /** The processes of {@code process}'s tree that still run: the JVM and what it started. */
    public static List<ProcessHandle> leftOf(ProcessHandle process) {
        List<ProcessHandle> left = new ArrayList<>();
        if (process.isAlive()) {
            left.add(process);
        }
        process.descendants().filter(ProcessHandle::isAlive).forEach(left::add);
        return left;
    }

    /** Waits until {@code process} ends; false when {@code timeout} passed first. */
    public static boolean awaitExit(ProcessHandle process, Duration timeout) {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return !process.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.INTERRUPTED, "interrupted", null, e);
        }
    }

    /** The last {@code n} lines of the log (none when there is no log). */
    public List<String> tail(int n) {
        if (!Files.isRegularFile(log)) {
            return List.of();
        }
        Deque<String> last = new ArrayDeque<>();
        try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
            lines.forEach(line -> {
                last.addLast(line);
                if (last.size() > n) {
                    last.removeFirst();
                }
            });
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
        return List.copyOf(last);
    }

    /** True when the log holds {@code text}. */
    public boolean logContains(String text) {
        try {
            return Files.isRegularFile(log)
                    && Files.readString(log, StandardCharsets.UTF_8).contains(text);
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }

    /** Prints what the log gets from now on, until interrupted (Ctrl-C). */
    public void follow(PrintWriter out) {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long position = file.length();
            byte[] buffer = new byte[8192];
            while (!Thread.currentThread().isInterrupted()) {
                long length = file.length();
                if (length < position) {
                    position = 0; // the log was truncated
                }
                if (length > position) {
                    file.seek(position);
                    int read = file.read(buffer, 0, (int) Math.min(buffer.length, length - position));
                    position += read;
                    out.print(new String(buffer, 0, read, StandardCharsets.UTF_8));
                    out.flush();
                } else {
                    Thread.sleep(200);
                }
            }
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "cannot read " + log + ": " + e.getMessage(), null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The pid file names a server JVM of this data directory (its command line says so), not a process
     * that got the pid of one that ended; where the system does not tell command lines, any.
     */
    private boolean ofThisDataDir(ProcessHandle process) {
        String arg = "--cairn.data-dir=" + dataDir;
        return process.info()
                .commandLine()
                .map(c -> c.contains(arg + " ") || c.endsWith(arg))
                .orElse(true);
    }
}
