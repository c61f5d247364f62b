package dev.cairn.api.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.Rows;

/** Pause, play and kill: of one process, refusals as 409s, and of many by a filter. */
class ControlIT extends ApiTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** A test.parent waiting for a child that sleeps a minute. */
    private String waitingParent() throws InterruptedException {
        String parent = Processes.launch(admin(), "test.parent", "{\"seconds\": 60}")
                .get("uuid")
                .asString();
        Processes.awaitState(admin(), parent, "waiting", WAIT);
        return parent;
    }

    @Test
    void oneProcessIsPausedPlayedAndKilledWithItsChild() throws Exception {
        String parent = waitingParent();
        Api.Response pause = admin().post("/api/v1/processes/" + parent + "/pause", "");
        assertEquals(200, pause.status(), pause.toString());
        assertEquals("paused", pause.json().get("outcome").asString());
        assertTrue(admin().get("/api/v1/processes/" + parent)
                .json()
                .get("process")
                .get("paused")
                .asBoolean());

        Api.Response again = admin().post("/api/v1/processes/" + parent + "/pause", "");
        assertEquals(409, again.status(), again.toString());
        assertTrue(again.json().get("detail").asString().endsWith("it is paused already"), again.toString());

        Api.Response play = admin().post("/api/v1/processes/" + parent + "/play", "");
        assertEquals(200, play.status(), play.toString());
        assertEquals("played", play.json().get("outcome").asString());
        Api.Response playAgain = admin().post("/api/v1/processes/" + parent + "/play", "");
        assertEquals(409, playAgain.status(), playAgain.toString());
        assertTrue(playAgain.json().get("detail").asString().endsWith("it is not paused"), playAgain.toString());

        JsonNode detail = admin().get("/api/v1/processes/" + parent).json();
        String child = detail.get("called").get(0).get("uuid").asString();
        Api.Response kill = admin().post("/api/v1/processes/" + parent + "/kill", "");
        assertEquals(200, kill.status(), kill.toString());
        assertEquals("killed", kill.json().get("outcome").asString());
        List<String> killed = new ArrayList<>();
        kill.json().get("killed").forEach(k -> killed.add(k.asString()));
        assertEquals(List.of(parent, child), killed);
        assertEquals(
                "killed",
                Processes.awaitEnd(admin(), parent, WAIT)
                        .get("process")
                        .get("state")
                        .asString());
        assertEquals(
                "killed",
                Processes.awaitEnd(admin(), child, WAIT)
                        .get("process")
                        .get("state")
                        .asString());

        Api.Response killAgain = admin().post("/api/v1/processes/" + parent + "/kill", "");
        assertEquals(409, killAgain.status(), killAgain.toString());
        assertTrue(killAgain.json().get("detail").asString().endsWith("it is killed"), killAgain.toString());
        List<String> report = new ArrayList<>();
        admin().get("/api/v1/processes/" + parent + "/report")
                .json()
                .get("items")
                .forEach(e -> report.add(e.get("message").asString()));
        assertTrue(report.stream().anyMatch(m -> m.startsWith("paused by ")), report.toString());
        assertTrue(report.stream().anyMatch(m -> m.startsWith("killed by ")), report.toString());
    }

    @Test
    void controlsByFilterActOnWhatMatchesAndSayWhatTheyDid() throws Exception {
        Set<String> parents = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            parents.add(waitingParent());
        }
        String filter = "{\"type\": \"test.parent\"}";
        JsonNode paused = admin().post("/api/v1/processes/pause", filter).json();
        assertEquals(3, paused.get("matched").asInt(), paused.toString());
        assertFalse(paused.get("more").asBoolean());
        Set<String> acted = new HashSet<>();
        paused.get("results").forEach(r -> {
            assertEquals("paused", r.get("outcome").asString());
            acted.add(r.get("process").asString());
        });
        assertEquals(parents, acted);
        // what is paused already no longer matches a pause
        assertEquals(
                0,
                admin().post("/api/v1/processes/pause", filter)
                        .json()
                        .get("matched")
                        .asInt());

        JsonNode played = admin().post("/api/v1/processes/play", filter).json();
        assertEquals(3, played.get("matched").asInt(), played.toString());

        JsonNode firstKills =
                admin().post("/api/v1/processes/kill?limit=2", filter).json();
        assertEquals(2, firstKills.get("matched").asInt(), firstKills.toString());
        assertTrue(firstKills.get("more").asBoolean());
        JsonNode lastKill = admin().post("/api/v1/processes/kill", filter).json();
        assertEquals(1, lastKill.get("matched").asInt(), lastKill.toString());
        assertFalse(lastKill.get("more").asBoolean());
        for (String parent : parents) {
            assertEquals(
                    "killed",
                    Processes.awaitEnd(admin(), parent, WAIT)
                            .get("process")
                            .get("state")
                            .asString());
        }
        JsonNode children = admin().get("/api/v1/processes?type=test.sleep&state=killed&count=true")
                .json();
        assertTrue(children.get("total").asInt() >= 3, children.toString());
    }

    @Test
    void controlsByListedProcessesReportRefusalsOneByOne() throws Exception {
        String live = waitingParent();
        String done = Processes.launch(admin(), "arithmetic.add_function", "{\"x\": 1, \"y\": 2}")
                .get("uuid")
                .asString();
        Processes.awaitEnd(admin(), done, WAIT);
        // a kill by filter matches only live processes; the finished one is left out
        JsonNode report = admin().post(
                        "/api/v1/processes/kill", "{\"processes\": [\"" + live + "\", \"" + done + "\"]}")
                .json();
        assertEquals(1, report.get("matched").asInt(), report.toString());
        assertEquals(live, report.get("results").get(0).get("process").asString());
    }

    @Test
    void anEmptyFilterOrAnUnknownProcessChangesNothing() {
        Rows before = Rows.count(engine);
        Api.Response empty = admin().post("/api/v1/processes/kill", "{}");
        assertEquals(400, empty.status(), empty.toString());
        assertTrue(empty.json().get("detail").asString().contains("all=true"), empty.toString());
        Api.Response unknown = admin().post("/api/v1/processes/" + UUID.randomUUID() + "/kill", "");
        assertEquals(404, unknown.status(), unknown.toString());
        Api.Response unknownInFilter =
                admin().post("/api/v1/processes/pause", "{\"processes\": [\"" + UUID.randomUUID() + "\"]}");
        assertEquals(404, unknownInFilter.status(), unknownInFilter.toString());
        Api.Response badState = admin().post("/api/v1/processes/pause", "{\"state\": [\"sleeping\"]}");
        assertEquals(400, badState.status(), badState.toString());
        Api.Response unknownField = admin().post("/api/v1/processes/pause", "{\"status\": \"waiting\"}");
        assertEquals(400, unknownField.status(), unknownField.toString());
        assertTrue(
                unknownField.json().get("detail").asString().startsWith("unknown field 'status'"),
                unknownField.toString());
        assertEquals(before, Rows.count(engine));
    }
}
