package dev.cairn.e2e.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.e2e.CairnCli;
import dev.cairn.e2e.CairnServerProcess;
import dev.cairn.e2e.DemoOutput;
import dev.cairn.e2e.Tmux;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * {@code cairn} in a real terminal, as a person uses it: an 80x24 tmux session running bash, keys typed
 * into it and its screen read back. Tables fit the width without colour codes showing as text, watch
 * follows a process live and ends at Ctrl-C, a progress bar moves and is cleared, completion offers the
 * commands, Ctrl-C during submit --wait leaves the process running, and computer setup asks its questions.
 */
class TerminalIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int COLUMNS = 80;
    private static final Pattern BAR = Pattern.compile("Running \\[([#.]{30})\\] (\\d+)/(\\d+)");
    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Duration SHORT = Duration.ofSeconds(30);

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path dataDir;

    @TempDir
    static Path home;

    static CairnServerProcess server;
    static Tmux tmux;

    /** A colour or an emphasis (SGR other than a reset), as tmux's {@code capture-pane -e} writes it. */
    private static final Pattern COLOUR = Pattern.compile("\u001b\\[(?!0?m)[0-9;]*m");

    @BeforeAll
    static void start() {
        server = CairnServerProcess.builder("cli-terminal", dataDir)
                .database(db)
                .broker(broker)
                .setting("cairn.demo", "true")
                .start()
                .awaitReady();
        server.awaitOutput(DemoOutput.END, Duration.ofMinutes(3));
        tmux = Tmux.server("terminal-it");
    }

    @AfterAll
    static void stop() {
        if (tmux != null) {
            tmux.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** A fresh 80x24 terminal with bash, cairn first on the PATH, talking to the server. */
    private static Tmux.Session terminal() throws Exception {
        return terminal("bash --noprofile --norc");
    }

    /** As {@link #terminal()}, running {@code shell}. */
    private static Tmux.Session terminal(String shell) throws Exception {
        Path launcher = CairnCli.launcher();
        Path work = Files.createTempDirectory(home, "tty");
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CAIRN_URL", server.url().toString());
        env.put("CAIRN_TOKEN", server.adminToken());
        env.put("CAIRN_CONFIG_DIR", home.resolve("config").toString());
        env.put("CAIRN_DATA_DIR", home.resolve("no-local-server").toString());
        env.put("XDG_CACHE_HOME", home.resolve("cache").toString());
        env.put("PATH", launcher.getParent() + ":" + System.getenv("PATH"));
        env.put("TERM", "xterm-256color");
        String java = System.getenv("CAIRN_TEST_JAVA");
        env.put(
                "JAVA_HOME",
                java != null && !java.isBlank()
                        ? Path.of(java).getParent().getParent().toString()
                        : System.getProperty("java.home"));
        return tmux.session(COLUMNS, 24, work, env, shell);
    }

    @Test
    void aTableFitsAnEightyColumnTerminalWithoutColourCodesAsText() throws Exception {
        Tmux.Session t = terminal();
        t.run("cairn process list -a");
        t.awaitPrompt(SHORT);
        String screen = t.history();
        List<String> lines = screen.lines().map(String::stripTrailing).toList();
        for (String line : lines) {
            assertTrue(
                    line.codePointCount(0, line.length()) <= COLUMNS,
                    "a line wider than the terminal (it wrapped): '" + line + "'\n" + screen);
        }
        String header = lines.stream()
                .filter(l -> l.startsWith("ID"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no header:\n" + screen));
        assertTrue(header.contains("State"), header);
        int shown = cairnJson("process list -a --json").size();
        assertTrue(shown >= 5, "the demo's processes");
        long rows = lines.stream().filter(l -> l.matches("^\\d+ .*")).count();
        assertEquals(shown, rows, "a row per process:\n" + screen);
        Matcher totalLine = Pattern.compile("Total results: (\\d+)").matcher(screen);
        assertTrue(totalLine.find(), screen);
        assertTrue(screen.contains("Finished [0]"), screen);
        assertFalse(screen.contains("\u001b"), screen);
        assertFalse(screen.contains("[0m") || screen.contains("[1m"), "colour codes shown as text:\n" + screen);
        assertTrue(COLOUR.matcher(t.historyWithEscapes()).find(), "a terminal gets colour");

        // no colour on a terminal either when NO_COLOR is set or --no-color given, the table the same
        for (String line : List.of("NO_COLOR=1 cairn process list -a", "cairn process list -a --no-color")) {
            t.clear();
            t.run(line);
            t.awaitPrompt(SHORT);
            String plain = t.historyWithEscapes();
            assertFalse(COLOUR.matcher(plain).find(), line + ":\n" + plain);
            assertTrue(plain.matches("(?s).*\\nTotal results: \\d+\\s.*"), line + ":\n" + plain);
        }

        // columns wider than the terminal: cells are cut to fit
        t.clear();
        t.run("cairn process list -a --columns id,uuid,ctime,type,state,status");
        t.awaitPrompt(SHORT);
        String wide = t.history();
        for (String line : wide.lines().map(String::stripTrailing).toList()) {
            assertTrue(line.codePointCount(0, line.length()) <= COLUMNS, "a line wider than the terminal: " + line);
        }
        assertTrue(wide.contains("…"), "cells cut to fit 80 columns:\n" + wide);

        // through a pipe: no colour codes, and the table is not cut
        t.clear();
        t.run("cairn process list -a | cat -v");
        t.awaitPrompt(SHORT);
        String piped = t.history();
        assertFalse(piped.contains("^["), "colour codes in a pipe:\n" + piped);
        assertTrue(piped.matches("(?s).*\\nTotal results: \\d+\\n.*"), piped);
    }

    @Test
    void watchShowsANewProcessLiveAndCtrlCEndsItWith130() throws Exception {
        Tmux.Session t = terminal();
        t.run("cairn process watch");
        t.awaitText("watching every process", SHORT);
        String uuid =
                launch("{\"entry_point\": \"arithmetic.add_multiply\", \"inputs\": {\"x\": 5, \"y\": 6, \"z\": 7}}");
        String shortId = uuid.substring(0, 18);
        String screen = t.await(
                s -> s.lines().anyMatch(l -> l.contains(shortId) && l.contains("finished [0]")),
                Duration.ofSeconds(60),
                "the watch printing " + shortId + " finishing");
        assertTrue(
                screen.lines()
                        .anyMatch(
                                l -> l.matches("\\d\\d:\\d\\d:\\d\\d  " + shortId + "  arithmetic\\.add_multiply  .*")),
                screen);
        assertNotEquals(Tmux.PROMPT.strip(), Tmux.lastLine(screen), "watch still runs:\n" + screen);

        t.keys("C-c");
        String stopped = t.awaitPrompt(SHORT);
        assertFalse(stopped.contains("Exception") || stopped.contains("\tat "), "no stack trace:\n" + stopped);
        assertEquals(130, t.lastExit(), t.screen());
    }

    @Test
    void submitWaitShowsAProgressBarThatMovesAndIsClearedAtTheEnd() throws Exception {
        Tmux.Session t = terminal();
        t.run("cairn process submit examples.sum_series -i n=300 -i batch=1 --wait");
        Matcher first = bar(t, 1, Duration.ofSeconds(60));
        long firstDone = Long.parseLong(first.group(2));
        Matcher later = bar(t, firstDone + 1, Duration.ofSeconds(60));
        assertTrue(Long.parseLong(later.group(2)) > firstDone, later.group());
        assertNotEquals(first.group(), later.group(), "the bar moved");

        String end = t.awaitPrompt(Duration.ofSeconds(120));
        assertFalse(BAR.matcher(end).find(), "the bar's line is cleared:\n" + end);
        assertTrue(
                end.lines().anyMatch(l -> l.matches(UUID.pattern() + " Finished \\[0\\]")), "the final line:\n" + end);
        assertEquals(0, t.lastExit(), t.screen());
    }

    private static void sourceCompletion(Tmux.Session t, String script) {
        t.run("source <(" + script + ")");
        t.awaitPrompt(SHORT);
        t.clear();
    }

    /** Types {@code cairn pro} and {@code keys}, waits for both commands it may begin, then clears the line. */
    private static void awaitProcessAndProfileOffered(Tmux.Session t, String... keys) {
        t.type("cairn pro").keys(keys);
        t.await(
                s -> s.lines().anyMatch(l -> l.matches("process\\s+profile\\s*")),
                SHORT,
                "process and profile offered");
        t.keys("C-u");
        t.clear();
    }

    @Test
    void completionInZshOffersTheSubcommands() throws Exception {
        // zsh without start-up files: the script loads zsh's completion and bashcompinit itself
        Tmux.Session t = terminal("zsh -f");
        sourceCompletion(t, "cairn completion zsh");
        awaitProcessAndProfileOffered(t, "Tab");
        t.type("cairn process wa").keys("Tab");
        t.await(s -> s.contains("cairn process watch"), SHORT, "watch completed");
    }

    @Test
    void completionOffersTheSubcommands() throws Exception {
        Tmux.Session t = terminal();
        sourceCompletion(t, "cairn completion");
        awaitProcessAndProfileOffered(t, "Tab", "Tab");
        t.type("cairn process ").keys("Tab", "Tab");
        String screen =
                t.await(s -> s.contains("list") && s.contains("watch"), SHORT, "the process subcommands offered");
        for (String sub : List.of("list", "show", "watch", "submit", "kill", "pause", "play", "report", "status")) {
            assertTrue(screen.matches("(?s).*(^|\\s)" + sub + "(\\s|$).*"), sub + " offered:\n" + screen);
        }
        t.keys("C-u");
        t.clear();
        t.type("cairn process li").keys("Tab");
        t.await(s -> s.contains("cairn process list "), SHORT, "one candidate completed in place");
        t.keys("C-u");
    }

    @Test
    void ctrlCDuringSubmitWaitStopsWaitingAndTheProcessGoesOn() throws Exception {
        Tmux.Session t = terminal();
        t.run("cairn process submit examples.sum_series -i n=1000 -i batch=1 --wait");
        bar(t, 2, Duration.ofSeconds(60));
        String submitted = t.screen()
                .lines()
                .filter(l -> l.startsWith("submitted "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no 'submitted' line:\n" + t.screen()));
        Matcher found = UUID.matcher(submitted);
        assertTrue(found.find(), submitted);
        String uuid = found.group();
        int calledAtCtrlC = tree(uuid).path("called").size();

        t.keys("C-c");
        String screen = t.awaitPrompt(SHORT);
        assertEquals(130, t.lastExit(), screen);
        assertTrue(screen.contains("stopped waiting; " + uuid + " goes on"), screen);
        assertFalse(BAR.matcher(screen).find(), "the bar's line is cleared, not left half drawn:\n" + screen);
        assertFalse(screen.contains("Exception") || screen.contains("\tat "), "no stack trace:\n" + screen);

        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            JsonNode tree = tree(uuid);
            while (tree.path("called").size() <= calledAtCtrlC
                    && !"finished".equals(tree.path("process").path("state").asString())) {
                assertTrue(System.nanoTime() < deadline, "the process went on after Ctrl-C: " + tree);
                Thread.sleep(200);
                tree = tree(uuid);
            }
            String state = tree.path("process").path("state").asString();
            assertTrue(List.of("created", "running", "waiting", "finished").contains(state), state);
        } finally {
            server.send(server.request("/api/v1/processes/" + uuid + "/kill", server.adminToken())
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build());
        }
    }

    @Test
    void computerSetupAsksItsQuestionsAtTheTerminal() throws Exception {
        Tmux.Session t = terminal();
        t.run("cairn computer setup");
        t.awaitText("Computer label: ", SHORT);
        t.keys("Enter");
        t.awaitText("label is required", SHORT);
        t.run("tty-box");
        t.awaitText("Hostname [localhost]: ", SHORT);
        t.keys("Enter");
        t.awaitText("Description: ", SHORT);
        t.run("typed at a terminal");
        t.awaitText("Transport (core.local, core.ssh) [core.local]: ", SHORT);
        t.keys("Enter");
        t.awaitText("[core.direct]: ", SHORT);
        t.keys("Enter");
        t.awaitText("Work directory (absolute): ", SHORT);
        t.run("/tmp/tty-box-work");
        t.awaitText("Mpirun command: ", SHORT);
        t.keys("Enter");
        t.awaitText("Default MPI processes per machine: ", SHORT);
        t.keys("Enter");
        t.awaitText("Text before each job's command: ", SHORT);
        t.keys("Enter");
        t.awaitText("Text after each job's command: ", SHORT);
        t.keys("Enter");
        String screen = t.awaitPrompt(SHORT);
        assertEquals(0, t.lastExit(), screen);
        assertTrue(screen.contains("computer 'tty-box' set up"), screen);

        HttpResponse<String> computer = server.get("/api/v1/computers/tty-box");
        assertEquals(200, computer.statusCode(), computer.body());
        JsonNode json = JSON.readTree(computer.body());
        assertEquals("localhost", json.path("hostname").asString(), json.toString());
        assertEquals("typed at a terminal", json.path("description").asString(), json.toString());
        assertTrue(json.toString().contains("/tmp/tty-box-work"), json.toString());
        assertTrue(json.toString().contains("core.direct"), json.toString());
    }

    /** Waits for the progress bar showing at least {@code done} ended, and gives its match. */
    private static Matcher bar(Tmux.Session t, long done, Duration timeout) {
        String screen = t.await(
                s -> {
                    Matcher m = BAR.matcher(s);
                    return m.find() && Long.parseLong(m.group(2)) >= done;
                },
                timeout,
                "a progress bar with at least " + done + " done");
        Matcher m = BAR.matcher(screen);
        assertTrue(m.find());
        int filled = m.group(1).indexOf('.') < 0 ? 30 : m.group(1).indexOf('.');
        long expected = Long.parseLong(m.group(2)) * 30 / Long.parseLong(m.group(3));
        assertEquals(Math.min(30, expected), filled, "the fill follows the count: " + m.group());
        return m;
    }

    private static String launch(String body) {
        HttpResponse<String> response = server.send(server.request("/api/v1/processes", server.adminToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
        assertEquals(201, response.statusCode(), response.body());
        return JSON.readTree(response.body()).path("uuid").asString();
    }

    private static JsonNode tree(String uuid) {
        HttpResponse<String> response = server.get("/api/v1/processes/" + uuid + "/tree");
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private static JsonNode cairnJson(String args) {
        CairnCli.Run run =
                CairnCli.against(home, server.url(), server.adminToken()).run(args.split(" "));
        assertEquals(0, run.exit(), run.toString());
        return run.json();
    }
}
