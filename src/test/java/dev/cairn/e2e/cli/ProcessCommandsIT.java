package dev.cairn.e2e.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.e2e.CairnCli;
import dev.cairn.e2e.CairnServerProcess;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * {@code cairn process ...} against a real server running the examples plugin: launching with
 * --wait and --watch and their exit codes, the list and its filters, show, status, report, watch
 * following live changes, pause, play and kill of a long examples.sum_series, and bad input.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProcessCommandsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A series of 1000 terms one at a time: a thousand rounds of a child each, long enough to steer. */
    private static final String[] SLOW = {"examples.sum_series", "--input", "n=1000", "--input", "batch=1"};

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path dataDir;

    @TempDir
    static Path home;

    static CairnServerProcess server;

    @BeforeAll
    static void startServer() {
        server = CairnServerProcess.builder("cli-process", dataDir)
                .database(db)
                .broker(broker)
                .start()
                .awaitReady();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static CairnCli cairn() {
        return CairnCli.against(home, server.url(), server.adminToken());
    }

    private static String[] args(String[] first, String... more) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /** First: its list counts the series of the class. */
    @Test
    @Order(1)
    void submitWaitsAndItsExitCodeSaysHowTheProcessEnded() {
        CairnCli.Run ok = cairn().run(
                        "process",
                        "submit",
                        "examples.sum_series",
                        "-i",
                        "n=3",
                        "-i",
                        "batch=2",
                        "--label",
                        "ok-3",
                        "--wait");
        assertEquals(0, ok.exit(), ok.toString());
        String uuid = ok.out().strip().split(" ")[0];
        assertTrue(ok.out().contains("Finished [0]"), ok.toString());

        CairnCli.Run failed = cairn().run("process", "submit", "examples.sum_series", "-i", "n=1001", "--wait");
        assertEquals(1, failed.exit(), failed.toString());
        assertTrue(failed.out().contains("Finished [400]"), failed.toString());
        String failedUuid = failed.out().strip().split(" ")[0];

        // the list and its filters, as JSON with the server's fields
        JsonNode all = cairn().run("process", "list", "--all", "--type", "examples.sum_series", "--json")
                .json();
        List<String> uuids = uuids(all);
        assertTrue(uuids.contains(uuid) && uuids.contains(failedUuid), all.toString());
        assertEquals(
                List.of(failedUuid),
                uuids(cairn().run("process", "list", "--failed", "--json").json()));
        assertEquals(
                List.of(failedUuid),
                uuids(cairn().run("process", "list", "--exit-status", "400", "--json")
                        .json()));
        assertEquals(
                List.of(uuid),
                uuids(cairn().run("process", "list", "-a", "--label", "ok-3", "--json")
                        .json()));
        // by kind: the series are work chains, the sums they call calculation functions
        assertEquals(
                List.of(uuid, failedUuid),
                uuids(cairn().run("process", "list", "-a", "--kind", "workchain", "--type", "examples.*", "--json")
                        .json()));
        assertEquals(
                List.of(),
                uuids(cairn().run("process", "list", "-a", "-K", "calcfunction", "--type", "examples.*", "--json")
                        .json()));
        JsonNode functionsAndFlows = cairn().run(
                        "process", "list", "-a", "-K", "calcfunction", "--kind", "calcjob,workchain", "--json")
                .json();
        List<String> kinds = new ArrayList<>();
        functionsAndFlows.forEach(p -> kinds.add(p.get("kind").asString()));
        assertTrue(
                kinds.contains("calcfunction") && kinds.contains("workchain") && !kinds.contains("workfunction"),
                "repeated and comma-separated: " + kinds);
        // by caller (named by its PK, as a person reads it off a list) and top-level ones only
        long pk = cairn().run("process", "show", uuid, "--json")
                .json()
                .get("process")
                .get("pk")
                .asLong();
        JsonNode called = cairn().run("process", "list", "-a", "--caller", "pk:" + pk, "--json")
                .json();
        assertFalse(called.isEmpty(), "the series called its sums");
        called.forEach(p -> assertEquals(uuid, p.get("caller").asString(), called.toString()));
        JsonNode top =
                cairn().run("process", "list", "-a", "--top-level", "--json").json();
        List<String> topUuids = uuids(top);
        assertTrue(topUuids.containsAll(List.of(uuid, failedUuid)), top.toString());
        top.forEach(
                p -> assertTrue(p.path("caller").isNull() || p.path("caller").isMissingNode(), p.toString()));
        called.forEach(p -> assertFalse(topUuids.contains(p.get("uuid").asString()), top.toString()));
        // by launch time: the failed one was launched after the first
        String failedAt = cairn().run("process", "show", failedUuid, "--json")
                .json()
                .get("process")
                .get("ctime")
                .asString();
        assertEquals(
                List.of(failedUuid),
                uuids(cairn().run("process", "list", "-a", "--type", "examples.*", "--since", failedAt, "--json")
                        .json()));
        assertEquals(
                List.of(uuid),
                uuids(cairn().run("process", "list", "-a", "--type", "examples.*", "--until", failedAt, "--json")
                        .json()));
        JsonNode labelled = cairn().run("process", "list", "-a", "--label", "ok-3", "--json")
                .json()
                .get(0);
        assertEquals("finished", labelled.get("state").asString());
        assertEquals(0, labelled.get("exit_status").asInt());
        assertFalse(
                uuids(cairn().run("process", "list", "--json").json()).contains(uuid),
                "by default only processes not ended are listed");
        JsonNode limited = cairn().run(
                        "process", "list", "-a", "--limit", "2", "--order", "ctime", "-D", "desc", "--json")
                .json();
        assertEquals(2, limited.size(), limited.toString());
        assertEquals(failedUuid, limited.get(0).get("uuid").asString(), "desc: the newest first");
        assertEquals(
                List.of(uuid, failedUuid),
                uuids(cairn().run(
                                "process",
                                "list",
                                "-S",
                                "finished",
                                "--type",
                                "examples.sum_series",
                                "--past-days",
                                "1",
                                "--order",
                                "mtime",
                                "--json")
                        .json()),
                "finished in the last day, the one that changed last at the end");

        CairnCli.Run table = cairn().run("process", "list", "--all", "--type", "examples.*");
        assertEquals(0, table.exit(), table.toString());
        assertTrue(table.out().lines().findFirst().orElse("").startsWith("ID"), table.toString());
        assertTrue(table.out().contains("Process label") && table.out().contains("Process State"), table.toString());
        assertTrue(table.out().lines().anyMatch(l -> l.startsWith(pk + " ")), "a row begins with its PK: " + table);
        assertTrue(table.out().contains("Finished [400]"), table.toString());
        assertTrue(table.out().contains("Total results: 2"), table.toString());
        assertTrue(table.out().matches("(?s).*\\b\\d+ (s|min) ago\\b.*"), "times relative to now: " + table);
        CairnCli.Run columns = cairn().run("process", "list", "-a", "--label", "ok-3", "--columns", "uuid,label");
        assertTrue(columns.out().contains(uuid + "  ok-3"), columns.toString());

        // show, status, report of the finished one, by a prefix of its uuid
        String prefix = uuid.substring(0, 18);
        CairnCli.Run show = cairn().run("process", "show", prefix);
        assertEquals(0, show.exit(), show.toString());
        assertAll(
                () -> assertTrue(show.out().contains(uuid), show.toString()),
                () -> assertTrue(show.out().contains("examples.sum_series (workchain)"), show.toString()),
                () -> assertTrue(show.out().contains("0 OK"), show.toString()),
                () -> assertTrue(
                        show.out().matches("(?s).*\\bn\\s+\\d+\\s+data\\.core\\.int\\.Int\\.\\s+3\\b.*"),
                        show.toString()),
                () -> assertTrue(
                        show.out().matches("(?s).*\\btotal\\s+\\d+\\s+data\\.core\\.int\\.Int\\.\\s+12\\b.*"),
                        show.toString()),
                () -> assertTrue(show.out().contains("arithmetic.add_multiply"), show.toString()));
        JsonNode shown = cairn().run("process", "show", prefix, "--json").json();
        assertEquals(uuid, shown.get("process").get("uuid").asString());
        assertEquals(12, shown.get("outputs").get("total").get("value").asInt());

        CairnCli.Run status = cairn().run("process", "status", prefix);
        assertEquals(0, status.exit(), status.toString());
        List<String> lines = status.out().lines().toList();
        assertTrue(lines.get(0).startsWith("examples.sum_series<" + pk + "> Finished [0]"), status.toString());
        assertEquals(
                3,
                lines.stream()
                        .filter(l -> l.matches("[├└]── arithmetic\\.add_multiply<.*"))
                        .count(),
                status.toString());
        assertTrue(
                lines.stream().anyMatch(l -> l.startsWith("│   ├── ") || l.startsWith("    ├── ")), status.toString());
        CairnCli.Run shallow = cairn().run("process", "status", prefix, "--max-depth", "1");
        assertEquals(5, shallow.out().lines().count(), "the series, 3 add_multiply, the sum: " + shallow);

        CairnCli.Run report = cairn().run("process", "report", prefix);
        assertEquals(0, report.exit(), report.toString());
        assertTrue(
                report.out().contains("[" + pk + " | REPORT] examples.sum_series: submitted terms 0 to 1"),
                report.toString());
        assertTrue(report.out().contains("submitted terms 2 to 2"), report.toString());
        assertTrue(
                report.out().matches("(?s)\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d .*"), "with timestamps: " + report);
        CairnCli.Run errors = cairn().run("process", "report", prefix, "--levelname", "error");
        assertEquals(0, errors.exit(), errors.toString());
        assertEquals("", errors.out(), errors.toString());
        assertEquals(
                2,
                cairn().run("process", "report", prefix, "--max-depth", "0", "--json")
                        .json()
                        .size());

        // a group's processes
        post("/api/v1/groups", "{\"label\": \"series-ok\"}");
        post("/api/v1/groups/series-ok/nodes", "{\"add\": [\"" + uuid + "\"]}");
        assertEquals(
                List.of(uuid),
                uuids(cairn().run("process", "list", "-a", "--group", "series-ok", "--json")
                        .json()));

        // whether launches would come from the cache: a process's own inputs, an entry point's, a workflow
        String sum = null;
        for (JsonNode p : cairn().run("process", "list", "-a", "--type", "arithmetic.sum", "--json")
                .json()) {
            if (uuid.equals(p.get("caller").asString())) {
                sum = p.get("uuid").asString();
            }
        }
        assertTrue(sum != null, "the series called arithmetic.sum");
        CairnCli.Run again = cairn().run("process", "explain-cache", sum.substring(0, 18));
        assertEquals(0, again.exit(), again.toString());
        assertTrue(again.out().startsWith("hit: "), "the same inputs hash as itself: " + again);
        CairnCli.Run fresh = cairn().run(
                        "process", "explain-cache", "arithmetic.add_function", "-i", "x=1000", "-i", "y=1", "--json");
        assertEquals(0, fresh.exit(), fresh.toString());
        assertFalse(fresh.json().get("hit").asBoolean(), fresh.toString());
        assertTrue(fresh.json().get("explanation").asString().startsWith("miss"), fresh.toString());
        CairnCli.Run workflow = cairn().run("process", "explain-cache", prefix);
        assertTrue(workflow.out().startsWith("never"), workflow.toString());
    }

    @Test
    void aYamlFileGivesTheInputsAndInputsOverrideIt(@TempDir Path dir) throws IOException {
        Path inputs = dir.resolve("series.yaml");
        Files.writeString(inputs, "# the series 0 + 1 + ... + n, two terms a round\nn: 100\nbatch: 2\n", UTF_8);
        CairnCli.Run run = cairn().run(
                        "process",
                        "submit",
                        "examples.sum_series",
                        "--inputs",
                        inputs.toString(),
                        "-i",
                        "n=4",
                        "--wait");
        assertEquals(0, run.exit(), run.toString());
        String uuid = run.out().strip().split(" ")[0];
        JsonNode shown = cairn().run("process", "show", uuid, "--json").json();
        assertEquals(4, shown.get("inputs").get("n").get("value").asInt(), shown.toString());
        assertEquals(2, shown.get("inputs").get("batch").get("value").asInt(), shown.toString());

        Path list = dir.resolve("list.yaml");
        Files.writeString(list, "- n\n", UTF_8);
        assertUsage(
                cairn().run("process", "submit", "examples.sum_series", "--inputs", list.toString()),
                "--inputs " + list + " must hold a mapping");
    }

    private static void post(String path, String json) {
        HttpResponse<String> response = server.send(server.request(path, server.adminToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
        assertTrue(response.statusCode() < 300, path + ": " + response.statusCode() + " " + response.body());
    }

    @Test
    void pausePlayAndKillSteerALongProcess() {
        CairnCli.Run submitted = cairn().run(args(new String[] {"process", "submit"}, SLOW));
        assertEquals(0, submitted.exit(), submitted.toString());
        String uuid = submitted.out().strip();

        CairnCli.Run pause = cairn().run("process", "pause", uuid);
        assertEquals(0, pause.exit(), pause.toString());
        assertTrue(pause.out().startsWith("paused examples.sum_series<" + uuid + ">"), pause.toString());
        assertTrue(uuids(cairn().run("process", "list", "--paused", "--json").json())
                .contains(uuid));
        assertTrue(cairn().run("process", "show", uuid).out().contains("(paused)"));
        CairnCli.Run again = cairn().run("process", "pause", uuid);
        assertEquals(5, again.exit(), "pausing a paused process is a conflict: " + again);
        assertTrue(again.err().contains("paused already"), again.toString());

        CairnCli.Run play = cairn().run("process", "play", uuid);
        assertEquals(0, play.exit(), play.toString());
        assertFalse(uuids(cairn().run("process", "list", "--paused", "--json").json())
                .contains(uuid));

        // pause and play in bulk, by a filter, as kill below
        CairnCli.Run pauseAll = cairn().run("process", "pause", "--all", "--type", "examples.sum_series", "--force");
        assertEquals(0, pauseAll.exit(), pauseAll.toString());
        assertTrue(
                uuids(cairn().run("process", "list", "--paused", "--json").json())
                        .contains(uuid),
                pauseAll.toString());
        CairnCli.Run contradiction = cairn().run("process", "pause", "--all", "--paused", "--force");
        assertEquals(2, contradiction.exit(), contradiction.toString());
        assertTrue(
                contradiction.err().contains("pause acts on processes that are not paused"), contradiction.toString());
        CairnCli.Run playAll = cairn().run("process", "play", "--all", "--paused", "--force");
        assertEquals(0, playAll.exit(), playAll.toString());
        assertFalse(
                uuids(cairn().run("process", "list", "--paused", "--json").json())
                        .contains(uuid),
                playAll.toString());

        CairnCli.Run kill = cairn().run("process", "kill", uuid, "--wait");
        assertEquals(0, kill.exit(), kill.toString());
        JsonNode killed = cairn().run("process", "show", uuid, "--json").json().get("process");
        assertEquals("killed", killed.get("state").asString(), killed.toString());
        CairnCli.Run late = cairn().run("process", "kill", uuid);
        assertEquals(5, late.exit(), "an ended process cannot be killed: " + late);

        // in bulk: refused without --force when no one can be asked, then done with it
        String first = cairn().run(args(new String[] {"process", "submit", "--label", "bulk"}, SLOW))
                .out()
                .strip();
        String second = cairn().run(args(new String[] {"process", "submit", "--label", "bulk"}, SLOW))
                .out()
                .strip();
        CairnCli.Run unasked = cairn().run("process", "kill", "--all", "--label", "bulk");
        assertEquals(2, unasked.exit(), unasked.toString());
        assertTrue(unasked.err().contains("--force"), unasked.toString());
        assertEquals(
                2,
                uuids(cairn().run("process", "list", "--label", "bulk", "--json")
                                .json())
                        .size(),
                "nothing killed unasked");
        CairnCli.Run bulk = cairn().run("process", "kill", "--all", "--label", "bulk", "--force", "--wait", "--json");
        assertEquals(0, bulk.exit(), bulk.toString());
        List<String> acted = new ArrayList<>();
        bulk.json().forEach(r -> acted.add(r.get("process").asString()));
        assertEquals(List.of(first, second), acted, bulk.toString());
        JsonNode after = cairn().run("process", "list", "-a", "--label", "bulk", "--json")
                .json();
        for (JsonNode p : after) {
            assertEquals("killed", p.get("state").asString(), after.toString());
        }
    }

    @Test
    void watchPrintsStateChangesAsTheyHappenAndCtrlCEndsIt() throws Exception {
        Path out = home.resolve("watch.out");
        Path err = home.resolve("watch.err");
        Process watch = start(out, err, "process", "watch", "--json");
        try {
            await(() -> Files.readString(err).contains("watching every process"), "the stream opened: " + err);
            CairnCli.Run run = cairn().run(
                            "process",
                            "submit",
                            "arithmetic.add_multiply",
                            "-i",
                            "x=2",
                            "-i",
                            "y=3",
                            "-i",
                            "z=4",
                            "--wait");
            assertEquals(0, run.exit(), run.toString());
            String uuid = run.out().strip().split(" ")[0];
            await(() -> Files.readString(out).contains("\"process\":\"" + uuid + "\""), "the watch saw " + uuid);
            await(() -> finished(out, uuid), "the watch saw " + uuid + " finish");
            // Ctrl-C
            new ProcessBuilder("kill", "-INT", Long.toString(watch.pid()))
                    .start()
                    .waitFor();
            assertTrue(watch.waitFor(20, TimeUnit.SECONDS), "watch ended at Ctrl-C");
            assertEquals(130, watch.exitValue(), Files.readString(err));
        } finally {
            watch.destroyForcibly();
        }

        // one process: the watch ends when it ends
        String uuid = cairn().run("process", "submit", "examples.sum_series", "-i", "n=40", "-i", "batch=1")
                .out()
                .strip();
        CairnCli.Run one = cairn().run("process", "watch", uuid.substring(0, 18));
        assertEquals(0, one.exit(), one.toString());
        assertTrue(
                one.out().contains(uuid.substring(0, 18) + "  examples.sum_series  waiting -> finished [0]")
                        || one.err().contains("has ended: Finished [0]"),
                one.toString());

        CairnCli.Run watched = cairn().run("process", "submit", "examples.sum_series", "-i", "n=2", "--watch");
        assertEquals(0, watched.exit(), watched.toString());
        assertTrue(watched.out().contains("arithmetic.add_multiply  "), watched.toString());
        assertTrue(watched.out().strip().endsWith("Finished [0]"), watched.toString());
    }

    @Test
    void badInputIsOneLineWithTheRightExitCode() {
        CairnCli.Run unknownType = cairn().run("process", "submit", "examples.no_such", "-i", "n=1");
        CairnCli.Run noEquals = cairn().run("process", "submit", "examples.sum_series", "-i", "n");
        CairnCli.Run wrongType = cairn().run("process", "submit", "examples.sum_series", "-i", "n=many");
        CairnCli.Run unknownRef = cairn().run("process", "show", "00000000");
        CairnCli.Run notARef = cairn().run("process", "status", "zz!");
        CairnCli.Run badState = cairn().run("process", "list", "--state", "running");
        CairnCli.Run badKind = cairn().run("process", "list", "--kind", "workchain,workflow");
        CairnCli.Run listHelp = cairn().run("process", "list", "--help");
        CairnCli.Run badColumn = cairn().run("process", "list", "--columns", "id,colour");
        CairnCli.Run nothingToKill = cairn().run("process", "kill");
        CairnCli.Run optionOfAWorkChain =
                cairn().run("process", "submit", "examples.sum_series", "-i", "n=2", "--option", "num_machines=2");
        assertAll(
                () -> assertUsage(unknownType, "examples.no_such"),
                () -> assertUsage(noEquals, "PORT=VALUE"),
                () -> assertUsage(wrongType, "n"),
                () -> assertEquals(3, unknownRef.exit(), unknownRef.toString()),
                () -> assertTrue(
                        unknownRef.err().startsWith("cairn: no node has the PK 0 nor a UUID beginning 00000000"),
                        unknownRef.toString()),
                () -> assertEquals(2, notARef.exit(), notARef.toString()),
                () -> assertTrue(notARef.err().contains("'zz!' is not a node: give its PK"), notARef.toString()),
                () -> assertUsage(badState, "running"),
                () -> assertUsage(badKind, "'workflow'"),
                () -> {
                    // the server names the kinds; the help offers the same ones
                    String named = badKind.err().lines().findFirst().orElse("");
                    for (String kind : List.of("calcfunction", "calcjob", "workchain", "workfunction")) {
                        assertTrue(named.contains(kind), "the error names the kind " + kind + ": " + badKind);
                    }
                    String offered = listHelp.out().replaceAll("\\s+", " ");
                    String kinds = named.substring(named.lastIndexOf('[') + 1, named.lastIndexOf(']'));
                    assertTrue(
                            offered.contains(kinds),
                            "--help offers the kinds the server takes (" + kinds + "): " + listHelp);
                },
                () -> assertUsage(badColumn, "colour"),
                () -> assertUsage(nothingToKill, "--all"),
                () -> assertUsage(optionOfAWorkChain, "only calculation jobs take job options"));
    }

    private static void assertUsage(CairnCli.Run run, String naming) {
        assertEquals(2, run.exit(), run.toString());
        String first = run.err().lines().findFirst().orElse("");
        assertTrue(first.startsWith("cairn: ") && first.contains(naming), "one line naming " + naming + ": " + run);
        assertFalse(run.err().contains("\tat "), "no stack trace: " + run);
        assertTrue(run.out().isEmpty(), "nothing on stdout: " + run);
    }

    private static boolean finished(Path out, String uuid) throws IOException {
        for (String line : Files.readAllLines(out, UTF_8)) {
            JsonNode event = JSON.readTree(line);
            if (event.get("process").asString().equals(uuid)
                    && event.get("to").asString().equals("finished")) {
                return true;
            }
        }
        return false;
    }

    private static List<String> uuids(JsonNode array) {
        List<String> uuids = new ArrayList<>();
        array.forEach(p -> uuids.add(p.get("uuid").asString()));
        return uuids;
    }

    /** The launcher in the background, as CairnCli runs it, its output to files. */
    private static Process start(Path out, Path err, String... args) throws IOException {
        // as a terminal's foreground job: SIGINT handled by default even when the test runner ignores it
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT,TERM"));
        command.add(CairnCli.launcher().toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        Map<String, String> env = builder.environment();
        env.put("CAIRN_CONFIG_DIR", home.resolve("config").toString());
        env.put("CAIRN_DATA_DIR", home.resolve("no-local-server").toString());
        env.put("XDG_CACHE_HOME", home.resolve("cache").toString());
        env.put("NO_COLOR", "1");
        env.put("CAIRN_URL", server.url().toString());
        env.put("CAIRN_TOKEN", server.adminToken());
        String java = System.getenv("CAIRN_TEST_JAVA");
        env.put(
                "JAVA_HOME",
                java != null && !java.isBlank()
                        ? Path.of(java).getParent().getParent().toString()
                        : System.getProperty("java.home"));
        return builder.start();
    }

    @FunctionalInterface
    private interface Check {
        boolean holds() throws Exception;
    }

    private static void await(Check check, String what) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!check.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what);
            }
            Thread.sleep(100);
        }
    }
}
