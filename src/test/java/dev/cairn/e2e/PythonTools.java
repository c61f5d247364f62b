package dev.cairn.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Python programs the conformance tests run: schemathesis and the venv's python, named by the
 * environment ({@code CAIRN_TEST_SCHEMATHESIS}, {@code CAIRN_TEST_PYTHON}; {@code bash .ci/run} makes
 * the venv and sets both), and the Python sources beside this module ({@code src/test/python}). A
 * missing variable fails the test with how to set it: these tests never skip.
 */
final class PythonTools {

    /** What a program printed (standard output and error together) and how it ended. */
    record Run(int exit, String output, Path log) {

        /** The last {@code lines} lines of the output, for a failure's message. */
        String tail(int lines) {
            List<String> all = output.lines().toList();
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        }
    }

    private PythonTools() {}

    /** The schemathesis executable of the test venv. */
    static Path schemathesis() {
        return executable("CAIRN_TEST_SCHEMATHESIS", "schemathesis");
    }

    /** The venv's python, which has requests. */
    static Path python() {
        return executable("CAIRN_TEST_PYTHON", "python");
    }

    /** The python of the venv with cairn-client and its tests' requirements ({@code .ci/python} makes it). */
    static Path clientPython() {
        String value = System.getenv("CAIRN_TEST_CLIENT_PYTHON");
        if (value == null || value.isBlank()) {
            throw new AssertionError("CAIRN_TEST_CLIENT_PYTHON is not set: it names the python of a venv with"
                    + " clients/python/requirements-test.txt and cairn-client. `bash .ci/run` makes one and sets it;"
                    + " by hand: python3 -m venv /tmp/client-venv && /tmp/client-venv/bin/pip install -r"
                    + " clients/python/requirements-test.txt ./clients/python"
                    + " && export CAIRN_TEST_CLIENT_PYTHON=/tmp/client-venv/bin/python");
        }
        return Path.of(value);
    }

    /** The checkout's root, for the sources of other parts (the Python client, the docs' notebooks). */
    static Path repository() {
        return Path.of(System.getProperty("cairn.repo.dir", "../.."))
                .toAbsolutePath()
                .normalize();
    }

    /** {@code src/test/python}: the client and schemathesis's settings. */
    static Path sources() {
        Path dir = Path.of(System.getProperty("cairn.python.dir", "python"))
                .toAbsolutePath()
                .normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("no Python sources at " + dir + " (the failsafe configuration names them)");
        }
        return dir;
    }

    /**
     * Runs {@code command} in {@code target/e2e-logs}, its output into {@code <name>.log} there; fails
     * past {@code timeout}.
     */
    static Run run(String name, List<String> command, Map<String, String> env, Duration timeout) {
        return start(name, command, env, timeout).await();
    }

    /** Starts what {@link #run} runs, to be awaited after other work, or beside another program. */
    static Started start(String name, List<String> command, Map<String, String> env, Duration timeout) {
        Path logs = Path.of(System.getProperty("cairn.e2e.logs", "target/e2e-logs"));
        try {
            Files.createDirectories(logs);
            Path log = logs.resolve(name + ".log");
            // in the log directory: schemathesis keeps a cache (.schemathesis/) in its working directory
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(logs.toAbsolutePath().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().putAll(env);
            return new Started(name, builder.start(), log, timeout, System.nanoTime() + timeout.toNanos());
        } catch (IOException e) {
            throw new UncheckedIOException("running " + command, e);
        }
    }

    /** A program {@link #start} started; {@code deadline} in {@link System#nanoTime()}'s terms. */
    record Started(String name, Process process, Path log, Duration timeout, long deadline) {

        /** Its {@link Run} once it ends; fails (and kills it) if it is still running at the deadline. */
        Run await() {
            try {
                if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    throw new AssertionError(name + " did not end within " + timeout.toSeconds()
                            + " s; its output so far:\n" + Files.readString(log, UTF_8));
                }
                return new Run(process.exitValue(), Files.readString(log, UTF_8), log);
            } catch (IOException e) {
                throw new UncheckedIOException("reading " + log, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    private static Path executable(String variable, String what) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            throw new AssertionError(variable + " is not set: it names the " + what + " of a Python venv with"
                    + " schemathesis and requests. `bash .ci/run` makes one and sets it; by hand: "
                    + "python3 -m venv /tmp/cairn-venv && /tmp/cairn-venv/bin/pip install -r src/test/python/requirements.txt"
                    + " && export CAIRN_TEST_PYTHON=/tmp/cairn-venv/bin/python"
                    + " CAIRN_TEST_SCHEMATHESIS=/tmp/cairn-venv/bin/schemathesis");
        }
        Path path = Path.of(value);
        if (!Files.isExecutable(path)) {
            throw new AssertionError(variable + "=" + value + " is no executable file");
        }
        return path;
    }
}
