package dev.cairn.api.computers;

import static dev.cairn.api.testing.Refusals.assertRefused;
import static dev.cairn.api.testing.Refusals.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.engine.testing.TestSshServer;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.users.UserStore;

/**
 * Computers through the API: set up, listed, shown, tested on this machine and over SSH (up and
 * down), enabled and disabled per user, deleted while unused; every kind of bad input refused
 * with its reason and nothing stored.
 */
class ComputersIT extends ApiTest {

    static TestSshServer sshd;

    @BeforeAll
    static void startSsh() throws Exception {
        sshd = TestSshServer.start(Files.createTempDirectory("cairn-ssh-keys"));
    }

    @AfterAll
    static void stopSsh() throws Exception {
        sshd.close();
    }

    private String local(String label) {
        return """
                {"label": "%s", "hostname": "localhost", "description": "this machine",
                 "transportType": "core.local", "schedulerType": "core.direct",
                 "settings": {"workdir": "%s", "max_connections": 2}}""".formatted(label, dataDir.resolve("work-" + label));
    }

    @Test
    void aLocalComputerIsSetUpShownTestedAndDeleted() {
        Api.Response made = admin().post("/api/v1/computers", local("here"));
        assertEquals(201, made.status(), made.toString());
        assertEquals("/api/v1/computers/here", made.header("Location"));
        JsonNode computer = made.json();
        assertEquals("here", computer.get("label").asString());
        assertEquals("core.local", computer.get("transportType").asString());
        assertEquals(2, computer.get("settings").get("max_connections").asInt());
        assertTrue(computer.get("enabled").asBoolean());
        assertEquals(0, computer.get("nodes").asLong());

        Api.Response byUuid = api(token(Role.READ))
                .get("/api/v1/computers/" + computer.get("uuid").asString());
        assertEquals(200, byUuid.status(), byUuid.toString());
        assertEquals("here", byUuid.json().get("label").asString());
        List<String> labels = new ArrayList<>();
        admin().get("/api/v1/computers")
                .json()
                .get("items")
                .forEach(c -> labels.add(c.get("label").asString()));
        assertTrue(labels.contains("here"), labels.toString());

        Api.Response test = admin().post("/api/v1/computers/here/test", "");
        assertEquals(200, test.status(), test.toString());
        JsonNode report = test.json();
        assertTrue(report.get("ok").asBoolean(), report.toString());
        List<String> checks = new ArrayList<>();
        report.get("checks").forEach(c -> {
            checks.add(c.get("name").asString());
            assertTrue(c.get("millis").asDouble() >= 0, c.toString());
        });
        assertEquals(List.of("settings", "connection", "whoami", "output", "workdir", "scheduler"), checks);
        assertTrue(Files.isDirectory(dataDir.resolve("work-here")));

        Api.Response deleted = admin().delete("/api/v1/computers/here");
        assertEquals(204, deleted.status(), deleted.toString());
        assertRefused(admin().get("/api/v1/computers/here"), 404, "no computer is labelled 'here'");
    }

    @Test
    void anSshComputerTestsOkAndOnceItIsDownTheTestSaysSoWithA200() throws Exception {
        Path knownHosts = dataDir.resolve("known_hosts");
        String body =
                """
                {"label": "login", "hostname": "127.0.0.1", "transportType": "core.ssh",
                 "schedulerType": "core.direct",
                 "settings": {"workdir": "%s", "connection_keep_alive": 0,
                  "transport_params": {"username": "%s", "port": %d, "key_filename": "%s",
                   "known_hosts": "%s"}}}""".formatted(dataDir.resolve("ssh-work"), sshd.user(), sshd.port(), sshd.clientKey(), knownHosts);
        assertEquals(201, admin().post("/api/v1/computers", body).status());
        JsonNode up = admin().post("/api/v1/computers/login/test", "").json();
        assertTrue(up.get("ok").asBoolean(), up.toString());

        sshd.stop();
        try {
            Api.Response down = admin().post("/api/v1/computers/login/test", "");
            assertEquals(200, down.status(), down.toString());
            JsonNode report = down.json();
            assertFalse(report.get("ok").asBoolean());
            JsonNode connection = report.get("checks").get(1);
            assertEquals("connection", connection.get("name").asString());
            assertFalse(connection.get("ok").asBoolean());
            assertTrue(connection.get("message").asString().contains("127.0.0.1"), connection.toString());
        } finally {
            sshd.restart();
        }
    }

    @Test
    void aComputerIsEnabledAndDisabledPerUser() {
        admin().post("/api/v1/computers", local("shared"));
        new UserStore(engine.database()).create("bob@example.org", "Bob", "", "");
        String me =
                new UserStore(engine.database()).get(engine.graph().userId()).email();

        Api.Response off = admin().post("/api/v1/computers/shared/disable", "");
        assertEquals(200, off.status(), off.toString());
        assertEquals(me, off.json().get("user").asString());
        assertFalse(off.json().get("enabled").asBoolean());
        assertFalse(
                admin().get("/api/v1/computers/shared").json().get("enabled").asBoolean());

        Api.Response bob = admin().post("/api/v1/computers/shared/disable", "{\"user\": \"bob@example.org\"}");
        assertEquals("bob@example.org", bob.json().get("user").asString());
        admin().post("/api/v1/computers/shared/enable", "{\"user\": \"bob@example.org\"}");
        JsonNode users = admin().get("/api/v1/computers/shared").json().get("users");
        assertEquals(2, users.size(), users.toString());
        for (JsonNode u : users) {
            assertEquals(
                    u.get("user").asString().equals("bob@example.org"),
                    u.get("enabled").asBoolean(),
                    users.toString());
        }
        assertTrue(admin().post("/api/v1/computers/shared/enable", "")
                .json()
                .get("enabled")
                .asBoolean());

        long authinfos = count(engine, "SELECT count(*) FROM authinfo");
        assertRefused(
                admin().post("/api/v1/computers/shared/enable", "{\"user\": \"nobody@example.org\"}"),
                400,
                "no user has the email 'nobody@example.org'");
        assertRefused(admin().post("/api/v1/computers/nowhere/disable", ""), 404, "no computer is labelled 'nowhere'");
        assertEquals(authinfos, count(engine, "SELECT count(*) FROM authinfo"));
    }

    @Test
    void badComputersAreRefusedWithTheirReasonAndNothingIsStored() {
        assertEquals(201, admin().post("/api/v1/computers", local("taken")).status());
        long computers = count(engine, "SELECT count(*) FROM computer");

        assertRefused(
                admin().post("/api/v1/computers", local("taken")), 409, "a computer labelled 'taken' exists already");
        assertRefused(
                admin().post("/api/v1/computers", local("x").replace("\"hostname\"", "\"hostnme\"")),
                400,
                "unknown field 'hostnme'",
                "hostname");
        assertRefused(
                admin().post("/api/v1/computers", local("x").replace("\"label\": \"x\"", "\"label\": [\"x\"]")),
                400,
                "field 'label'");
        assertRefused(
                admin().post(
                                "/api/v1/computers",
                                "{\"label\": \"x\", \"hostname\": \"h\", \"transportType\":"
                                        + " \"core.local\", \"schedulerType\": \"core.direct\", \"settings\": \"/tmp\"}"),
                400,
                "field 'settings'");
        assertRefused(
                admin().post("/api/v1/computers", local("x").replace("core.local", "core.ftp")),
                400,
                "unknown transport type 'core.ftp'; the transport types are core.local, core.ssh");
        assertRefused(
                admin().post("/api/v1/computers", local("x").replace("core.direct", "core.lsf")),
                400,
                "unknown scheduler type 'core.lsf'; the scheduler types are core.direct, core.pbspro, core.slurm,"
                        + " core.torque");
        assertRefused(
                admin().post("/api/v1/computers", local("x").replace("max_connections", "max_conections")),
                400,
                "unknown computer setting max_conections; the settings are");
        assertRefused(
                admin().post(
                                "/api/v1/computers",
                                local("x").replace("\"max_connections\": 2", "\"max_connections\": 0")),
                400,
                "'max_connections' must be a number of at least 1, not 0");
        assertRefused(
                admin().post(
                                "/api/v1/computers",
                                "{\"label\": \"x\", \"hostname\": \"h\", \"transportType\":"
                                        + " \"core.local\", \"schedulerType\": \"core.direct\", \"settings\": {}}"),
                400,
                "no absolute 'workdir'");
        assertRefused(
                admin().post(
                                "/api/v1/computers",
                                "{\"hostname\": \"h\", \"transportType\": \"core.local\","
                                        + " \"schedulerType\": \"core.direct\", \"settings\": {\"workdir\": \"/w\"}}"),
                400,
                "computer label must not be empty");
        assertRefused(admin().post("/api/v1/computers", "{"), 400, "malformed JSON");
        assertEquals(computers, count(engine, "SELECT count(*) FROM computer"));
    }

    @Test
    void aComputerNodesNameIsNotDeletedAndUnknownOnesAre404() {
        JsonNode made = admin().post("/api/v1/computers", local("used")).json();
        long id = count(engine, "SELECT id FROM computer WHERE label = 'used'");
        engine.graph().store(new InstalledCode(id, "/bin/bash"));
        assertEquals(
                1, admin().get("/api/v1/computers/used").json().get("nodes").asLong());
        assertRefused(admin().delete("/api/v1/computers/used"), 409, "is used by 1 node");
        assertEquals(
                made.get("uuid").asString(),
                admin().get("/api/v1/computers/used").json().get("uuid").asString());
        for (Api.Response r : List.of(
                admin().get("/api/v1/computers/nowhere"),
                admin().delete("/api/v1/computers/nowhere"),
                admin().post("/api/v1/computers/nowhere/test", ""),
                admin().get("/api/v1/computers/0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b"))) {
            assertEquals(404, r.status(), r.toString());
        }
    }

    @Test
    void aComputersTransportIsConfiguredAndBadParametersChangeNothing() {
        String ssh = """
                {"label": "remote", "hostname": "login.example.org", "transportType": "core.ssh",
                 "schedulerType": "core.slurm", "settings": {"workdir": "/scratch/cairn", "max_connections": 3,
                 "transport_params": {"username": "alice", "key_filename": "/home/alice/.ssh/id_ed25519"}}}""";
        assertEquals(201, admin().post("/api/v1/computers", ssh).status());

        Api.Response configured = admin().put(
                        "/api/v1/computers/remote/transport-params",
                        "{\"username\": \"bob\", \"port\": 2222, \"key_filename\": \"/home/bob/.ssh/id_rsa\"}");
        assertEquals(200, configured.status(), configured.toString());
        JsonNode settings = admin().get("/api/v1/computers/remote").json().get("settings");
        assertEquals("bob", settings.get("transport_params").get("username").asString());
        assertEquals(2222, settings.get("transport_params").get("port").asInt());
        assertEquals(3, settings.get("max_connections").asInt(), "the other settings stay");

        assertRefused(
                admin().put("/api/v1/computers/remote/transport-params", "{\"proxy\": \"jump\"}"),
                400,
                "unknown ssh transport parameter 'proxy'");
        assertEquals(
                "bob",
                admin().get("/api/v1/computers/remote")
                        .json()
                        .get("settings")
                        .get("transport_params")
                        .get("username")
                        .asString());
        assertEquals(
                404,
                admin().put("/api/v1/computers/nowhere/transport-params", "{}").status());
        assertEquals(
                403,
                api(token(Role.SUBMIT))
                        .put("/api/v1/computers/remote/transport-params", "{}")
                        .status());
    }

    @Test
    void readingNeedsReadAndChangingNeedsAdmin() {
        admin().post("/api/v1/computers", local("roles"));
        assertEquals(200, api(token(Role.READ)).get("/api/v1/computers/roles").status());
        assertEquals(
                403,
                api(token(Role.SUBMIT)).post("/api/v1/computers", local("nope")).status());
        assertEquals(
                403,
                api(token(Role.SUBMIT)).post("/api/v1/computers/roles/test", "").status());
        assertEquals(
                403,
                api(token(Role.SUBMIT))
                        .post("/api/v1/computers/roles/disable", "")
                        .status());
    }
}
