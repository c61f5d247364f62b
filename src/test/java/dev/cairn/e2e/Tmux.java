package dev.cairn.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A real terminal for a test: a private tmux server (its own socket, no configuration file) whose
 * sessions run {@code bash --noprofile --norc} (or another shell) with the prompt {@link #PROMPT}. Keys are typed with
 * {@code send-keys}, the screen is read with {@code capture-pane -p -J} (wrapped lines joined, so a line
 * wider than the terminal shows as one long line), and the tests wait for what they expect on the
 * screen up to a deadline.
 */
public final class Tmux implements AutoCloseable {

    /** The shell's prompt in every session. */
    public static final String PROMPT = "tty$ ";

    private static final AtomicInteger SESSIONS = new AtomicInteger();

    private final String socket;

    private Tmux(String socket) {
        this.socket = socket;
    }

    /** A tmux server of its own, started with its first session. */
    public static Tmux server(String name) {
        return new Tmux("cairn-" + name + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
    }

    /**
     * A new session of {@code columns}x{@code rows} running bash in {@code dir} with {@code env} (and
     * nothing else set by the test: the tmux server's own environment is this JVM's).
     */
    public Session session(int columns, int rows, Path dir, Map<String, String> env) {
        return session(columns, rows, dir, env, "bash --noprofile --norc");
    }

    /** As {@link #session(int, int, Path, Map)}, running {@code shell} (a command line, no start-up files). */
    public Session session(int columns, int rows, Path dir, Map<String, String> env, String shell) {
        String name = "s" + SESSIONS.incrementAndGet();
        List<String> command = new ArrayList<>(List.of(
                "new-session",
                "-d",
                "-s",
                name,
                "-x",
                Integer.toString(columns),
                "-y",
                Integer.toString(rows),
                "-c",
                dir.toString()));
        env.forEach((key, value) -> {
            command.add("-e");
            command.add(key + "=" + value);
        });
        // tmux gives a new session's shell the client's PATH and its own default-terminal as TERM, whatever
        // -e says: the client runs with env, and the shell command sets TERM again
        String term = env.getOrDefault("TERM", "xterm-256color");
        command.add("TERM=" + term + " PS1='" + PROMPT + "' HISTFILE=/dev/null exec " + shell);
        tmux(env, command.toArray(String[]::new));
        Session session = new Session(name);
        session.await(screen -> screen.strip().equals(PROMPT.strip()), Duration.ofSeconds(20), "the first prompt");
        return session;
    }

    /** One session: its one pane, typed into and read. */
    public final class Session {

        private final String name;

        private Session(String name) {
            this.name = name;
        }

        /** Types {@code text} as it is (no key names). */
        public Session type(String text) {
            tmux("send-keys", "-t", name, "-l", text);
            return this;
        }

        /** Presses keys by tmux's names: Enter, Tab, C-c, C-u. */
        public Session keys(String... keys) {
            List<String> command = new ArrayList<>(List.of("send-keys", "-t", name));
            command.addAll(List.of(keys));
            tmux(command.toArray(String[]::new));
            return this;
        }

        /** Types a command line and Enter. */
        public Session run(String line) {
            return type(line).keys("Enter");
        }

        /** The visible screen, wrapped lines joined, colours and other escapes interpreted away. */
        public String screen() {
            return tmux("capture-pane", "-p", "-J", "-t", name);
        }

        /** The whole pane from the start of its history, wrapped lines joined. */
        public String history() {
            return tmux("capture-pane", "-p", "-J", "-S", "-", "-t", name);
        }

        /** The whole pane with its colours as escape sequences ({@code -e}). */
        public String historyWithEscapes() {
            return tmux("capture-pane", "-p", "-J", "-e", "-S", "-", "-t", name);
        }

        /** Clears the screen and its history, leaving a fresh prompt. */
        public Session clear() {
            run("clear");
            await(screen -> screen.strip().equals(PROMPT.strip()), Duration.ofSeconds(10), "a cleared screen");
            tmux("clear-history", "-t", name);
            return this;
        }

        /** Waits until the screen satisfies {@code expected}, returning that screen; fails with the last one. */
        public String await(Predicate<String> expected, Duration timeout, String what) {
            long deadline = System.nanoTime() + timeout.toNanos();
            String screen = screen();
            while (!expected.test(screen)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(
                            "not on the screen within " + timeout + ": " + what + "\n--- screen ---\n" + screen);
                }
                pause(100);
                screen = screen();
            }
            return screen;
        }

        /** Waits until {@code text} is on the screen. */
        public String awaitText(String text, Duration timeout) {
            return await(screen -> screen.contains(text), timeout, "'" + text + "'");
        }

        /** Waits until the screen's last non-empty line is the bare prompt: the command ended. */
        public String awaitPrompt(Duration timeout) {
            return await(
                    screen -> lastLine(screen).equals(PROMPT.strip()), timeout, "the prompt back after the command");
        }

        /** Runs {@code echo "exit=$?"} after a command ended and gives the number it printed. */
        public int lastExit() {
            run("echo \"exit=$?\"");
            String screen =
                    await(s -> s.lines().anyMatch(l -> l.matches("exit=\\d+")), Duration.ofSeconds(10), "exit=<code>");
            List<String> exits =
                    screen.lines().filter(l -> l.matches("exit=\\d+")).toList();
            return Integer.parseInt(exits.getLast().substring("exit=".length()));
        }
    }

    /** The last non-empty line of a screen, stripped. */
    public static String lastLine(String screen) {
        List<String> lines =
                screen.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        return lines.isEmpty() ? "" : lines.getLast();
    }

    private String tmux(String... args) {
        return tmux(Map.of(), args);
    }

    private String tmux(Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>(List.of("tmux", "-L", socket, "-f", "/dev/null"));
        command.addAll(List.of(args));
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            // the first client's environment becomes the tmux server's global one, which sessions inherit
            builder.environment().keySet().removeAll(List.of("NO_COLOR", "COLUMNS", "LINES", "TMUX"));
            builder.environment().putAll(env);
            Process process = builder.start();
            String out = new String(process.getInputStream().readAllBytes(), UTF_8);
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("tmux " + String.join(" ", args) + " did not end");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        "tmux " + String.join(" ", args) + " -> exit " + process.exitValue() + ": " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Ends the tmux server and every session's shell and command. */
    @Override
    public void close() {
        try {
            new ProcessBuilder("tmux", "-L", socket, "kill-server")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor(20, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
