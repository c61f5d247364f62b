package dev.cairn.engine.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code rabbitmqctl} of the local broker, for tests that stop it or change its settings.
 * Needs to run where the broker runs, as a user allowed to use it (root here).
 */
public final class RabbitCtl {

    private static final List<Path> PLACES = List.of(
            Path.of("/usr/sbin/rabbitmqctl"),
            Path.of("/usr/lib/rabbitmq/bin/rabbitmqctl"),
            Path.of("/usr/local/sbin/rabbitmqctl"),
            Path.of("/usr/bin/rabbitmqctl"));

    private RabbitCtl() {}

    /** The rabbitmqctl executable; fails the test with what was looked for when there is none. */
    public static Path executable() {
        String configured = System.getenv("CAIRN_TEST_RABBITMQCTL");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        for (Path p : PLACES) {
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        throw new AssertionError("this test stops and reconfigures the local RabbitMQ with rabbitmqctl, which was found"
                + " in none of " + PLACES + " (set CAIRN_TEST_RABBITMQCTL to its path)");
    }

    /** Runs rabbitmqctl with {@code args}; returns its standard output, failing on a non-zero exit. */
    public static String run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(executable().toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out;
        try (var in = p.getInputStream()) {
            out = in.readAllBytes();
        }
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", cmd) + " did not end in 120 s");
        }
        String text = new String(out, StandardCharsets.UTF_8).trim();
        if (p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " exited with " + p.exitValue() + ": " + text);
        }
        return text;
    }

    /** Evaluates an Erlang expression on the broker node; returns what it printed. */
    public static String eval(String expression) throws IOException, InterruptedException {
        return run("eval", expression);
    }

    /** The value of one of the rabbit application's settings, as Erlang prints it ("{ok,1800000}" or "undefined"). */
    public static String getEnv(String key) throws IOException, InterruptedException {
        return eval("application:get_env(rabbit, " + key + ").");
    }

    /**
     * Sets a rabbit application setting back to what {@link #getEnv} read: "{ok,V}" sets V,
     * "undefined" unsets it.
     */
    public static void restoreEnv(String key, String previous) throws IOException, InterruptedException {
        String p = previous.trim();
        if (p.equals("undefined")) {
            eval("application:unset_env(rabbit, " + key + ").");
        } else if (p.startsWith("{ok,") && p.endsWith("}")) {
            eval("application:set_env(rabbit, " + key + ", " + p.substring(4, p.length() - 1) + ").");
        } else {
            throw new IllegalStateException("cannot restore " + key + " from '" + previous + "'");
        }
    }

    public static void setEnv(String key, String erlangValue) throws IOException, InterruptedException {
        eval("application:set_env(rabbit, " + key + ", " + erlangValue + ").");
    }
}
