package dev.cairn.e2e.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.e2e.CairnCli;
import dev.cairn.e2e.ServerStartupCache;

/**
 * {@code cairn up} as a person runs it: the launcher in the foreground starts the server jar in the
 * embedded mode with its start-up cache, the demo runs and its processes are on the server, the other
 * commands find the server with no profile, and Ctrl-C (SIGINT to the launcher) stops everything, the
 * embedded PostgreSQL included.
 */
class UpIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern UUID =
            Pattern.compile("\\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\b");

    @TempDir
    Path home;

    @TempDir
    Path dataDir;

    private Process up;

    @AfterEach
    void leaveNothingRunning() {
        if (up != null && up.isAlive()) {
            up.descendants().forEach(ProcessHandle::destroyForcibly);
            up.destroyForcibly();
        }
    }

    @Test
    void upServesTheDemoToTheOtherCommandsAndCtrlCStopsEverything() throws Exception {
        // the suite's servers start from the cache too: recorded before cairn up runs, so no two recordings
        // overlap, and cairn up finds it current
        ServerStartupCache cache = ServerStartupCache.record();
        int port = freePort();
        Path log = Path.of(System.getProperty("cairn.e2e.logs", "target/e2e-logs"))
                .toAbsolutePath()
                .resolve("cairn-up.log");
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT,TERM"));
        command.addAll(List.of(
                CairnCli.launcher().toString(),
                "up",
                "--port",
                Integer.toString(port),
                "--data-dir",
                dataDir.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(k -> k.startsWith("CAIRN_") && !k.equals("CAIRN_TEST_JAVA"));
        env.put("CAIRN_CONFIG_DIR", home.resolve("config").toString());
        env.put("XDG_CACHE_HOME", home.resolve("cache").toString());
        env.put("NO_COLOR", "1");
        String java = System.getenv("CAIRN_TEST_JAVA");
        env.put(
                "JAVA_HOME",
                java != null && !java.isBlank()
                        ? Path.of(java).getParent().getParent().toString()
                        : System.getProperty("java.home"));
        up = builder.start();

        String output = awaitOutput(log, "Serving until Ctrl-C", Duration.ofMinutes(6));
        // the data directory is all another terminal needs: its server.url names the port
        assertTrue(output.contains("export CAIRN_DATA_DIR=" + dataDir + "\n"), output);
        assertFalse(output.contains("CAIRN_URL"), output);

        ProcessHandle server = up.descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("cairn-server"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no server JVM under cairn up:\n" + output));
        assertTrue(
                server.info()
                        .commandLine()
                        .orElseThrow()
                        .contains(cache.jvmOptions().getFirst()),
                "the server runs with the start-up cache: " + server.info().commandLine());
        assertEquals(
                Long.toString(server.pid()),
                Files.readString(dataDir.resolve("server.pid")).strip());

        // the demo ran: the processes it printed are on the server, finished
        String token = Files.readString(dataDir.resolve("admin-token")).strip();
        Set<String> uuids = new LinkedHashSet<>();
        Matcher m = UUID.matcher(output.substring(0, output.indexOf("Serving until Ctrl-C")));
        while (m.find()) {
            uuids.add(m.group());
        }
        assertTrue(uuids.size() >= 4, "the demo's table names its processes:\n" + output);
        HttpClient http = HttpClient.newHttpClient();
        int processes = 0;
        for (String uuid : uuids) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/processes/" + uuid))
                            .header("Authorization", "Bearer " + token)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 404) {
                continue; // a node of the demo that is no process (its result)
            }
            assertEquals(200, r.statusCode(), r.body());
            JsonNode process = JSON.readTree(r.body());
            assertEquals("finished", process.get("process").get("state").asString(), r.body());
            processes++;
        }
        assertTrue(processes >= 4, processes + " of the demo's processes found:\n" + output);

        // the other commands find it with no profile, as printed: its URL and token from the data directory
        CairnCli cairn = new CairnCli(home).env("CAIRN_DATA_DIR", dataDir.toString());
        CairnCli.Run status = cairn.run("status", "--json");
        CairnCli.Run list = cairn.run("process", "list", "--all");
        CairnCli.Run schema = cairn.run("db", "status");
        CairnCli.Run serverStatus = cairn.run("server", "status");
        CairnCli.Run second = cairn.run("up", "--port", Integer.toString(freePort()));
        assertAll(
                () -> assertEquals(0, status.exit(), status.toString()),
                () -> assertEquals(0, list.exit(), "process list with CAIRN_DATA_DIR alone: " + list),
                () -> assertTrue(list.out().contains("examples.sum_series"), list.toString()),
                () -> assertTrue(
                        status.json().get("server").get("embeddedDatabase").asBoolean(), status.toString()),
                () -> assertEquals(
                        1, status.json().get("workers").get("connected").asInt(), status.toString()),
                () -> assertEquals(0, schema.exit(), schema.toString()),
                () -> assertTrue(
                        schema.out().startsWith("schema version " + ServerCommandsIT.lastVersion() + ": "),
                        schema.toString()),
                () -> assertEquals(0, serverStatus.exit(), serverStatus.toString()),
                () -> assertTrue(serverStatus.out().contains("pid " + server.pid()), serverStatus.toString()),
                () -> assertEquals(5, second.exit(), "a second up on the same data directory: " + second),
                () -> assertTrue(second.err().contains("already (pid " + server.pid() + ")"), second.toString()));

        // a worker of its own joins it, through the services it publishes, and stops with it
        CairnCli.Run worker = cairn.run("worker", "start", "1");
        assertEquals(0, worker.exit(), worker.toString());
        long workerPid = Long.parseLong(
                Files.readString(dataDir.resolve("workers/worker-1.pid")).strip());
        assertTrue(ProcessHandle.of(workerPid).map(ProcessHandle::isAlive).orElse(false), worker.toString());

        Path postmasterPid = dataDir.resolve("postgres/cluster/postmaster.pid");
        long postmaster =
                Long.parseLong(Files.readAllLines(postmasterPid).get(0).strip());
        List<ProcessHandle> tree = new ArrayList<>(up.descendants().toList());

        new ProcessBuilder("kill", "-INT", Long.toString(up.pid())).start().waitFor();

        assertTrue(up.waitFor(2, TimeUnit.MINUTES), "cairn up ended after Ctrl-C");
        String stopping = Files.readString(log, UTF_8);
        assertAll(
                () -> assertEquals(130, up.exitValue(), "128 + SIGINT, as the server ended" + tail(stopping)),
                () -> assertTrue(stopping.contains("embedded PostgreSQL stopped"), tail(stopping)),
                () -> assertFalse(
                        ProcessHandle.of(workerPid).map(ProcessHandle::isAlive).orElse(false),
                        "the worker started against it stopped with it" + tail(stopping)),
                () -> assertFalse(
                        ProcessHandle.of(postmaster).map(ProcessHandle::isAlive).orElse(false)),
                () -> assertFalse(Files.exists(postmasterPid), "PostgreSQL removed postmaster.pid"),
                () -> assertEquals(
                        List.of(), tree.stream().filter(ProcessHandle::isAlive).toList()),
                () -> assertEquals(
                        List.of(),
                        ProcessHandle.allProcesses()
                                .filter(p -> p.info().commandLine().orElse("").contains(dataDir.toString()))
                                .toList(),
                        "processes naming " + dataDir),
                () -> assertFalse(Files.exists(dataDir.resolve("server.pid")), "the pid file is gone"));
    }

    private static String awaitOutput(Path log, String text, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String output = Files.readString(log, UTF_8);
            if (output.contains(text)) {
                return output;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no '" + text + "' within " + timeout + tail(output));
            }
            Thread.sleep(250);
        }
    }

    private static String tail(String output) {
        return "\n--- the end of cairn up's output ---\n" + output.substring(Math.max(0, output.length() - 4000));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
