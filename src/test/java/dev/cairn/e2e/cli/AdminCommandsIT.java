package dev.cairn.e2e.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.e2e.CairnCli;
import dev.cairn.e2e.CairnServerProcess;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * The administration commands against a real server: computers set up from YAML, listed, shown, tested,
 * disabled and enabled, configured and exported (an export sets up an equal computer); codes, groups,
 * users, tokens (a new token works, a revoked one is refused) and plugins; and bad input refused with
 * its exit code and nothing stored.
 */
class AdminCommandsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path dataDir;

    static CairnServerProcess server;

    @TempDir
    Path home;

    @BeforeAll
    static void startServer() {
        server = CairnServerProcess.builder("cli-admin", dataDir)
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

    private CairnCli cairn() {
        return CairnCli.against(home, server.url(), server.adminToken());
    }

    private static JsonNode get(String path) {
        HttpResponse<String> response = server.get(path);
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return JSON.readTree(response.body());
    }

    private static int status(String path) {
        return server.get(path).statusCode();
    }

    private static String post(String path, String json) {
        HttpResponse<String> response = server.send(server.request(path, server.adminToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
        assertTrue(response.statusCode() < 300, path + ": " + response.body());
        return response.body();
    }

    private Path localComputerYaml(String label) throws Exception {
        Path yaml = home.resolve(label + ".yaml");
        Files.createDirectories(home);
        Files.writeString(yaml, """
                label: %s
                hostname: localhost
                description: this machine
                transport: core.local
                scheduler: core.direct
                work_dir: %s
                mpirun_command: mpirun -np {tot_num_mpiprocs}
                default_mpiprocs_per_machine: 2
                prepend_text: export OMP_NUM_THREADS=1
                max_connections: 2
                """.formatted(label, dataDir.resolve("work-" + label)));
        return yaml;
    }

    private static void assertRun(int exit, CairnCli.Run run) {
        assertEquals(exit, run.exit(), run.toString());
    }

    private static List<String> labels(JsonNode array, String field) {
        List<String> labels = new ArrayList<>();
        array.forEach(item -> labels.add(item.path(field).asString()));
        return labels;
    }

    @Test
    void aComputerSetUpFromYamlIsListedShownTestedDisabledEnabledAndExportedToAnEqualOne() throws Exception {
        CairnCli cairn = cairn();
        assertRun(
                0,
                cairn.run(
                        "computer",
                        "setup",
                        "--config",
                        localComputerYaml("here").toString()));

        JsonNode stored = get("/api/v1/computers/here");
        assertEquals("core.local", stored.path("transportType").asString());
        assertEquals("this machine", stored.path("description").asString());
        assertEquals(
                dataDir.resolve("work-here").toString(),
                stored.path("settings").path("workdir").asString());
        assertEquals(
                2, stored.path("settings").path("default_mpiprocs_per_machine").asInt());
        assertEquals(2, stored.path("settings").path("max_connections").asInt());

        CairnCli.Run list = cairn.run("computer", "list", "--json");
        CairnCli.Run table = cairn.run("computer", "list");
        CairnCli.Run show = cairn.run("computer", "show", "here");
        CairnCli.Run showJson = cairn.run("computer", "show", "here", "--json");
        assertAll(
                () -> assertRun(0, list),
                () -> assertTrue(labels(list.json(), "label").contains("here"), list.toString()),
                () -> assertTrue(table.out().contains("here") && table.out().contains("core.direct"), table.toString()),
                () -> assertTrue(
                        show.out().contains(dataDir.resolve("work-here").toString()), show.toString()),
                () -> assertEquals(stored.path("uuid"), showJson.json().path("uuid")));

        CairnCli.Run test = cairn.run("computer", "test", "here");
        assertRun(0, test);
        for (String check : List.of("settings", "connection", "whoami", "output", "workdir", "scheduler")) {
            assertTrue(test.out().contains(check), "check " + check + " printed: " + test);
        }
        assertFalse(test.out().contains("failed"), test.toString());

        assertRun(0, cairn.run("computer", "disable", "here"));
        assertFalse(get("/api/v1/computers/here").path("enabled").asBoolean());
        assertFalse(
                labels(cairn.run("computer", "list", "--json").json(), "label").contains("here"));
        CairnCli.Run all = cairn.run("computer", "list", "-a", "--json");
        assertTrue(labels(all.json(), "label").contains("here"), all.toString());
        assertRun(0, cairn.run("computer", "enable", "here"));
        assertTrue(get("/api/v1/computers/here").path("enabled").asBoolean());

        Path exported = home.resolve("here-export.yaml");
        assertRun(0, cairn.run("computer", "export", "setup", "here", exported.toString()));
        assertTrue(Files.readString(exported).contains("work_dir:"), Files.readString(exported));
        CairnCli.Run stdout = cairn.run("computer", "export", "setup", "here");
        assertEquals(Files.readString(exported), stdout.out());
        assertRun(0, cairn.run("computer", "setup", "--config", exported.toString(), "--label", "here-copy"));
        JsonNode copy = get("/api/v1/computers/here-copy");
        for (String field : List.of("hostname", "description", "transportType", "schedulerType", "settings")) {
            assertEquals(stored.path(field), copy.path(field), field);
        }
    }

    @Test
    void aFailingCheckExitsOneAndSaysWhichFailed() {
        CairnCli cairn = cairn();
        assertRun(
                0,
                cairn.run(
                        "computer",
                        "setup",
                        "-n",
                        "--label",
                        "broken",
                        "--hostname",
                        "localhost",
                        "--transport",
                        "core.local",
                        "--scheduler",
                        "core.direct",
                        "--work-dir",
                        "/proc/cairn-cannot-be-made"));
        CairnCli.Run test = cairn.run("computer", "test", "broken");
        assertRun(1, test);
        assertTrue(test.out().lines().anyMatch(l -> l.startsWith("workdir") && l.contains("failed")), test.toString());
        CairnCli.Run json = cairn.run("computer", "test", "broken", "--json");
        assertRun(1, json);
        assertFalse(json.json().path("ok").asBoolean());
    }

    @Test
    void aTransportIsConfiguredFromOptionsAndFromAnExportedConfig() throws Exception {
        CairnCli cairn = cairn();
        Path yaml = home.resolve("remote.yaml");
        Files.createDirectories(home);
        Files.writeString(yaml, """
                label: remote
                hostname: login.example.org
                transport: core.ssh
                scheduler: core.slurm
                work_dir: /scratch/cairn
                transport_params:
                  username: alice
                  key_filename: /home/alice/.ssh/id_ed25519
                """);
        assertRun(0, cairn.run("computer", "setup", "--config", yaml.toString()));
        assertRun(0, cairn.run("computer", "configure", "remote", "--username", "bob", "--port", "2222"));
        JsonNode params = get("/api/v1/computers/remote").path("settings").path("transport_params");
        assertEquals("bob", params.path("username").asString());
        assertEquals(2222, params.path("port").asInt());
        assertEquals("/home/alice/.ssh/id_ed25519", params.path("key_filename").asString(), "what is not given stays");

        Path config = home.resolve("remote-config.yaml");
        assertRun(0, cairn.run("computer", "export", "config", "remote", config.toString()));
        Files.writeString(yaml, Files.readString(yaml).replace("label: remote", "label: remote2"));
        assertRun(0, cairn.run("computer", "setup", "--config", yaml.toString()));
        assertRun(0, cairn.run("computer", "configure", "remote2", "--config", config.toString()));
        assertEquals(params, get("/api/v1/computers/remote2").path("settings").path("transport_params"));

        Files.writeString(config, "proxy_jump: gateway\n");
        CairnCli.Run unknown = cairn.run("computer", "configure", "remote2", "--config", config.toString());
        assertRun(2, unknown);
        assertTrue(unknown.err().contains("'proxy_jump'"), unknown.toString());
        CairnCli.Run badPort = cairn.run("computer", "configure", "remote2", "--port", "70000");
        assertRun(2, badPort);
        assertTrue(badPort.err().contains("70000"), badPort.toString());
        assertEquals(params, get("/api/v1/computers/remote2").path("settings").path("transport_params"));
    }

    @Test
    void badComputerInputIsAUsageErrorNamingTheFieldAndNothingIsStored() throws Exception {
        CairnCli cairn = cairn();
        int before = get("/api/v1/computers").path("items").size();
        Path unknown = home.resolve("unknown.yaml");
        Files.createDirectories(home);
        Files.writeString(unknown, Files.readString(localComputerYaml("colourful")) + "colour: blue\n");
        CairnCli.Run unknownField = cairn.run("computer", "setup", "--config", unknown.toString());

        Path noLabel = home.resolve("nolabel.yaml");
        Files.writeString(noLabel, Files.readString(localComputerYaml("x")).replace("label: x\n", ""));
        CairnCli.Run missingLabel = cairn.run("computer", "setup", "--config", noLabel.toString());
        CairnCli.Run missingWorkDir = cairn.run("computer", "setup", "-n", "--label", "nowhere");
        CairnCli.Run badTransport = cairn.run(
                "computer", "setup", "-n", "--label", "pigeon", "--transport", "core.pigeon", "--work-dir", "/tmp");
        assertAll(
                () -> assertRun(2, unknownField),
                () -> assertTrue(unknownField.err().contains("unknown field 'colour'"), unknownField.toString()),
                () -> assertRun(2, missingLabel),
                () -> assertTrue(missingLabel.err().contains("missing label"), missingLabel.toString()),
                () -> assertTrue(missingLabel.err().contains("--label"), missingLabel.toString()),
                () -> assertRun(2, missingWorkDir),
                () -> assertTrue(missingWorkDir.err().contains("missing work_dir"), missingWorkDir.toString()),
                () -> assertRun(2, badTransport),
                () -> assertTrue(badTransport.err().contains("core.pigeon"), badTransport.toString()));
        assertEquals(before, get("/api/v1/computers").path("items").size());
    }

    @Test
    void aComputerInUseIsNotDeletedAndAnUnusedOneOnlyWithForce() throws Exception {
        CairnCli cairn = cairn();
        assertRun(
                0,
                cairn.run(
                        "computer",
                        "setup",
                        "--config",
                        localComputerYaml("busy").toString()));
        assertRun(
                0,
                cairn.run(
                        "computer",
                        "setup",
                        "--config",
                        localComputerYaml("idle").toString()));
        assertRun(
                0,
                cairn.run(
                        "code",
                        "create",
                        "-n",
                        "--label",
                        "sh",
                        "--computer",
                        "busy",
                        "--filepath-executable",
                        "/bin/sh"));

        CairnCli.Run inUse = cairn.run("computer", "delete", "busy", "--force");
        assertRun(5, inUse);
        assertTrue(inUse.err().contains("computer 'busy' is in use by 1 node"), inUse.toString());
        assertEquals(200, status("/api/v1/computers/busy"));

        CairnCli.Run unasked = cairn.run("computer", "delete", "idle");
        assertRun(2, unasked);
        assertTrue(unasked.err().contains("--force"), unasked.toString());
        assertEquals(200, status("/api/v1/computers/idle"));
        assertRun(0, cairn.run("computer", "delete", "idle", "--force"));
        assertEquals(404, status("/api/v1/computers/idle"));
        assertRun(3, cairn.run("computer", "show", "idle"));
    }

    @Test
    void codesAreCreatedListedShownExportedDeletedAndCreatedAgainFromTheExport() throws Exception {
        CairnCli cairn = cairn();
        assertRun(
                0,
                cairn.run(
                        "computer",
                        "setup",
                        "--config",
                        localComputerYaml("codes-host").toString()));
        CairnCli.Run create = cairn.run(
                "code",
                "create",
                "-n",
                "--label",
                "bash",
                "--computer",
                "codes-host",
                "--filepath-executable",
                "/bin/bash",
                "--description",
                "bash for adding",
                "--default-calc-job-plugin",
                "arithmetic.add",
                "--prepend-text",
                "set -e",
                "--no-with-mpi");
        assertRun(0, create);
        JsonNode code = get("/api/v1/codes/bash@codes-host");
        assertEquals("/bin/bash", code.path("executable").asString());
        assertFalse(code.path("withMpi").asBoolean(true));

        CairnCli.Run list = cairn.run("code", "list", "--json");
        assertTrue(labels(list.json(), "fullLabel").contains("bash@codes-host"), list.toString());
        assertTrue(cairn.run("code", "list", "--computer", "codes-host").out().contains("bash@codes-host"));
        CairnCli.Run show = cairn.run("code", "show", "bash@codes-host", "--json");
        assertEquals(code.path("uuid"), show.json().path("uuid"));

        Path exported = home.resolve("bash.yaml");
        assertRun(0, cairn.run("code", "export", "bash@codes-host", exported.toString()));
        assertTrue(Files.readString(exported).contains("filepath_executable: /bin/bash"), Files.readString(exported));

        CairnCli.Run unasked = cairn.run("code", "delete", "bash@codes-host");
        assertRun(2, unasked);
        assertRun(0, cairn.run("code", "delete", "bash@codes-host", "--force"));
        assertEquals(404, status("/api/v1/codes/bash@codes-host"));

        assertRun(0, cairn.run("code", "create", "--config", exported.toString()));
        JsonNode again = get("/api/v1/codes/bash@codes-host");
        for (String field : List.of(
                "label", "computer", "executable", "description", "defaultCalcJobPlugin", "prependText", "withMpi")) {
            assertEquals(code.path(field), again.path(field), field);
        }

        Path files = home.resolve("adder");
        Files.createDirectories(files.resolve("bin"));
        Files.writeString(files.resolve("bin/add.sh"), "#!/bin/sh\necho $(($1 + $2))\n");
        Files.writeString(files.resolve("README"), "adds\n");
        CairnCli.Run portable = cairn.run(
                "code",
                "create",
                "-n",
                "--label",
                "adder",
                "--filepath-files",
                files.toString(),
                "--filepath-executable",
                "bin/add.sh",
                "--json");
        assertRun(0, portable);
        assertEquals("portable", portable.json().path("kind").asString());
        JsonNode stored = get("/api/v1/codes/adder");
        assertEquals(List.of("README", "bin/add.sh"), sorted(stored.path("files")));

        CairnCli.Run badField = cairn.run("code", "create", "--config", writeYaml("bad-code.yaml", "labl: x\n"));
        assertRun(2, badField);
        assertTrue(badField.err().contains("unknown field 'labl'"), badField.toString());
        CairnCli.Run missing = cairn.run("code", "create", "--label", "lonely");
        assertRun(2, missing);
        assertTrue(missing.err().contains("missing computer"), missing.toString());
    }

    private String writeYaml(String name, String text) throws Exception {
        Files.createDirectories(home);
        Path file = home.resolve(name);
        Files.writeString(file, text);
        return file.toString();
    }

    private static List<String> sorted(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asString()));
        values.sort(null);
        return values;
    }

    @Test
    void groupsAreCreatedFilledShownEmptiedAndDeleted() {
        CairnCli cairn = cairn();
        String one = JSON.readTree(post("/api/v1/nodes", "{\"type\": \"int\", \"value\": 1, \"label\": \"one\"}"))
                .path("uuid")
                .asString();
        String two = JSON.readTree(post("/api/v1/nodes", "{\"type\": \"int\", \"value\": 2, \"label\": \"two\"}"))
                .path("uuid")
                .asString();

        assertRun(0, cairn.run("group", "create", "pair", "--description", "two ints"));
        CairnCli.Run add = cairn.run("group", "add", "pair", one, two.substring(0, 13));
        assertRun(0, add);
        assertTrue(add.out().contains("added 2 nodes"), add.toString());
        assertEquals(2, get("/api/v1/groups/pair").path("nodes").asLong());

        CairnCli.Run show = cairn.run("group", "show", "pair");
        assertRun(0, show);
        assertTrue(show.out().contains(one) && show.out().contains(two), show.toString());
        assertTrue(show.out().contains("UUID") && show.out().contains("two"), show.toString());
        CairnCli.Run showJson = cairn.run("group", "show", "pair", "--json");
        assertEquals(List.of(one, two), labels(showJson.json().path("members"), "uuid"));

        assertRun(0, cairn.run("group", "remove", "pair", one));
        assertEquals(1, get("/api/v1/groups/pair").path("nodes").asLong());
        CairnCli.Run list = cairn.run("group", "list", "--json");
        assertTrue(labels(list.json(), "label").contains("pair"), list.toString());

        CairnCli.Run noSuchNode = cairn.run("group", "add", "pair", "ffffffff-ffff");
        assertRun(3, noSuchNode);
        assertEquals(1, get("/api/v1/groups/pair").path("nodes").asLong());

        assertRun(2, cairn.run("group", "delete", "pair"));
        assertEquals(200, status("/api/v1/groups/pair"));
        assertRun(0, cairn.run("group", "delete", "pair", "--force"));
        assertEquals(404, status("/api/v1/groups/pair"));
        assertEquals(200, status("/api/v1/nodes/" + one), "the nodes stay");
    }

    @Test
    void aNewTokenWorksWithItsRoleAndIsRefusedOnceRevoked() throws Exception {
        CairnCli cairn = cairn();
        CairnCli.Run create = cairn.run("token", "create", "--role", "read", "--label", "ci");
        assertRun(0, create);
        String secret = create.out().strip();
        assertEquals(1, create.out().lines().count(), "only the secret on stdout: " + create);
        assertTrue(create.err().contains("not shown again"), create.toString());

        CairnCli.Run list = cairn.run("token", "list", "--json");
        JsonNode ci = null;
        for (JsonNode token : list.json()) {
            if (token.path("name").asString().equals("ci")) {
                ci = token;
            }
        }
        assertTrue(ci != null && ci.path("valid").asBoolean(), list.toString());
        assertFalse(list.out().contains(secret), "no secret is listed");

        CairnCli withToken = CairnCli.against(home.resolve("reader"), server.url(), secret);
        assertRun(0, withToken.run("computer", "list"));
        assertRun(4, withToken.run("token", "list"));

        String uuid = ci.path("uuid").asString();
        assertRun(0, cairn.run("token", "revoke", uuid.substring(0, 8)));
        assertTrue(get("/api/v1/tokens/" + uuid).hasNonNull("revoked"));
        CairnCli.Run refused = withToken.run("computer", "list");
        for (int i = 0; i < 30 && refused.exit() == 0; i++) {
            // a server may remember a token for a few seconds
            Thread.sleep(500);
            refused = withToken.run("computer", "list");
        }
        assertRun(4, refused);

        CairnCli.Run json = cairn.run("token", "create", "--role", "submit", "--json");
        assertRun(0, json);
        assertTrue(json.json().path("secret").asString().length() > 20, json.toString());
        assertEquals("submit", json.json().path("token").path("roles").get(0).asString());
        assertRun(2, cairn.run("token", "create", "--role", "root"));
        assertRun(3, cairn.run("token", "revoke", "ffffffff"));
    }

    @Test
    void usersAreListedAddedAndGetTokens() {
        CairnCli cairn = cairn();
        CairnCli.Run list = cairn.run("user", "list", "--json");
        assertRun(0, list);
        assertTrue(list.json().size() >= 1, list.toString());
        boolean anyDefault = false;
        for (JsonNode user : list.json()) {
            anyDefault |= user.path("isDefault").asBoolean();
        }
        assertTrue(anyDefault, "the default user is marked: " + list);

        assertRun(0, cairn.run("user", "add", "bob@example.org", "--first-name", "Bob", "--institution", "ACME"));
        assertRun(0, cairn.run("user", "configure", "bob@example.org", "--last-name", "Builder"));
        JsonNode bob = get("/api/v1/users/bob@example.org");
        assertEquals("Bob", bob.path("firstName").asString());
        assertEquals("Builder", bob.path("lastName").asString());
        assertTrue(cairn.run("user", "list").out().contains("bob@example.org"));
        assertRun(5, cairn.run("user", "add", "bob@example.org"));

        CairnCli.Run token = cairn.run("token", "create", "--role", "submit", "--user", "bob@example.org", "--json");
        assertRun(0, token);
        assertEquals("bob@example.org", token.json().path("token").path("user").asString());
    }

    @Test
    void pluginListShowsTheEntryPointsAndTheInputsOfOne() {
        CairnCli cairn = cairn();
        JsonNode types = get("/api/v1/process-types");
        List<String> entryPoints = labels(types, "entry_point");
        assertTrue(entryPoints.contains("arithmetic.add"), entryPoints.toString());

        CairnCli.Run list = cairn.run("plugin", "list", "--json");
        assertRun(0, list);
        assertEquals(entryPoints, labels(list.json(), "entry_point"));
        assertTrue(cairn.run("plugin", "list").out().contains("arithmetic.add"));

        JsonNode add = get("/api/v1/process-types/arithmetic.add");
        List<String> ports =
                new ArrayList<>(add.path("inputs_schema").path("properties").propertyNames());
        CairnCli.Run one = cairn.run("plugin", "list", "arithmetic.add", "--json");
        assertRun(0, one);
        List<String> names = labels(one.json().path("inputs"), "name");
        for (String port : ports) {
            assertTrue(
                    names.contains(port) || names.stream().anyMatch(n -> n.startsWith(port + ".")),
                    port + " in " + names);
        }
        for (JsonNode input : one.json().path("inputs")) {
            assertTrue(input.has("type") && input.has("required") && input.has("default") && input.has("help"));
        }
        // a calculation job's options, resources first by their own names, as --option takes them
        List<String> options = labels(one.json().path("job_options"), "name");
        assertEquals(
                List.of("num_machines", "num_mpiprocs_per_machine", "num_cores_per_mpiproc"), options.subList(0, 3));
        assertTrue(options.containsAll(List.of("max_wallclock_seconds", "queue_name", "environment_variables")));
        assertFalse(options.contains("resources"), options.toString());
        CairnCli.Run table = cairn.run("plugin", "list", "arithmetic.add");
        assertTrue(table.out().contains("INPUT") && table.out().contains("REQUIRED"), table.toString());
        assertTrue(table.out().contains("JOB OPTION (--option)"), table.toString());
        CairnCli.Run workChain = cairn.run("plugin", "list", "arithmetic.add_multiply", "--json");
        assertEquals(0, workChain.json().path("job_options").size(), workChain.toString());
        assertRun(3, cairn.run("plugin", "list", "no.such.plugin"));
    }

    /** What a run on a terminal printed there (questions, echoed answers, output), and its exit code. */
    private record TerminalRun(int exit, String screen) {}

    /**
     * Runs {@code cairn args} on a pseudo-terminal that {@code script} makes, as a person's shell runs it,
     * typing {@code answers} (one line each).
     */
    private TerminalRun onTerminal(List<String> answers, String... args) throws Exception {
        Files.createDirectories(home);
        Path screen = home.resolve("screen-" + System.nanoTime() + ".txt");
        String command = CairnCli.launcher() + " " + String.join(" ", args);
        ProcessBuilder builder = new ProcessBuilder("script", "-q", "-e", "-c", command, screen.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("CAIRN_URL", server.url().toString());
        builder.environment().put("CAIRN_TOKEN", server.adminToken());
        builder.environment().put("CAIRN_CONFIG_DIR", home.resolve("config").toString());
        builder.environment().put("XDG_CACHE_HOME", home.resolve("cache").toString());
        builder.environment().put("NO_COLOR", "1");
        builder.environment().put("COLUMNS", "200");
        String java = System.getenv("CAIRN_TEST_JAVA");
        builder.environment()
                .put(
                        "JAVA_HOME",
                        java != null && !java.isBlank()
                                ? Path.of(java).getParent().getParent().toString()
                                : System.getProperty("java.home"));
        Process process = builder.start();
        try (OutputStream in = process.getOutputStream()) {
            for (String answer : answers) {
                in.write((answer + "\n").getBytes(UTF_8));
            }
            in.flush();
            // the input stays open until the command ends: script ends the terminal when its input does
            assertTrue(process.waitFor(2, TimeUnit.MINUTES), "cairn on a terminal hung");
        }
        return new TerminalRun(process.exitValue(), Files.readString(screen));
    }

    @Test
    void onATerminalSetupAsksForEachFieldNotGivenAndDeleteAsksFirst() throws Exception {
        String workDir = dataDir.resolve("work-asked").toString();
        TerminalRun setup = onTerminal(
                List.of("asked", "", "set up on a terminal", "", "", workDir, "", "4", "", ""), "computer", "setup");
        assertEquals(0, setup.exit(), setup.screen());
        for (String question : List.of(
                "Computer label",
                "Hostname [localhost]",
                "Transport (core.local, core.ssh) [core.local]",
                "Work directory")) {
            assertTrue(setup.screen().contains(question), question + " asked: " + setup.screen());
        }
        JsonNode asked = get("/api/v1/computers/asked");
        assertEquals("localhost", asked.path("hostname").asString(), "an empty answer takes the default");
        assertEquals("set up on a terminal", asked.path("description").asString());
        assertEquals("core.direct", asked.path("schedulerType").asString());
        assertEquals(workDir, asked.path("settings").path("workdir").asString());
        assertEquals(
                4, asked.path("settings").path("default_mpiprocs_per_machine").asInt());
        assertFalse(asked.path("settings").has("mpirun_command"), "an optional field left empty is not set");

        TerminalRun given = onTerminal(
                List.of(workDir),
                "computer",
                "setup",
                "--label",
                "half",
                "-H",
                "localhost",
                "-T",
                "core.local",
                "-S",
                "core.direct",
                "-D",
                "given",
                "--mpirun-command",
                "mpirun",
                "--mpiprocs-per-machine",
                "1",
                "--prepend-text",
                "true",
                "--append-text",
                "true");
        assertEquals(0, given.exit(), given.screen());
        assertFalse(given.screen().contains("Computer label"), "a field given is not asked: " + given.screen());
        assertTrue(given.screen().contains("Work directory"), given.screen());

        TerminalRun no = onTerminal(List.of("n"), "computer", "delete", "asked");
        assertEquals(0, no.exit(), no.screen());
        assertTrue(no.screen().contains("Delete computer 'asked'? [y/N]"), no.screen());
        assertEquals(200, status("/api/v1/computers/asked"));
        TerminalRun yes = onTerminal(List.of("y"), "computer", "delete", "asked");
        assertEquals(0, yes.exit(), yes.screen());
        assertEquals(404, status("/api/v1/computers/asked"));
    }

    @Test
    void helpLoadsNoYamlClassesAndExportDoes() throws Exception {
        Path helpLog = home.resolve("help-classes.log");
        Path exportLog = home.resolve("export-classes.log");
        assertRun(
                0,
                // `cairn --help` alone is printed from a file without a JVM; the computer commands' help
                // builds their whole tree, export included
                cairn().env("CAIRN_JAVA_OPTS", "-Xlog:class+load=info:file=" + helpLog)
                        .run("computer", "--help"));
        assertRun(
                0,
                cairn().run(
                                "computer",
                                "setup",
                                "--config",
                                localComputerYaml("yaml-load").toString()));
        assertRun(
                0,
                cairn().env("CAIRN_JAVA_OPTS", "-Xlog:class+load=info:file=" + exportLog)
                        .run("computer", "export", "setup", "yaml-load"));
        assertFalse(Files.readString(helpLog).contains("tools.jackson.dataformat.yaml"), "help loads no YAML class");
        assertFalse(Files.readString(helpLog).contains("org.snakeyaml"), "help loads no YAML class");
        assertTrue(Files.readString(exportLog).contains("tools.jackson.dataformat.yaml.YAMLMapper"));
    }
}
