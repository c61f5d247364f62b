package dev.cairn.api.stats;

import static dev.cairn.api.testing.Refusals.assertRefused;
import static dev.cairn.api.testing.Refusals.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.StrData;
import dev.cairn.storage.graph.users.UserStore;

/**
 * The statistics through the API: the node table's own counts, for everyone and for one user,
 * over the days asked for; the changes are folded in by the server in the background; bad
 * parameters refused.
 */
class StatisticsIT extends ApiTest {

    @Test
    void theCountsAreTheNodeTablesForEveryoneAndForOneUser() {
        long frank = new UserStore(engine.database())
                .create("frank@example.org", "", "", "")
                .id();
        engine.graph().storeAll(List.of(new IntData(1), new IntData(2), new StrData("s")));
        CalcFunctionNode add = new CalcFunctionNode("arithmetic.add_function");
        add.setProcessState("waiting");
        engine.graph().forUser(frank).storeAll(List.of(add, new IntData(3)));

        Api.Response r = api(token(Role.READ)).get("/api/v1/statistics?days=3");
        assertEquals(200, r.status(), r.toString());
        JsonNode s = r.json();
        assertEquals(count(engine, "SELECT count(*) FROM node"), s.get("total").asLong());
        assertEquals(
                count(engine, "SELECT count(*) FROM node WHERE node_type = 'data.core.int.Int.'"),
                s.get("nodeTypes").get("data.core.int.Int.").asLong());
        assertEquals(1, s.get("processTypes").get("arithmetic.add_function").asLong());
        assertEquals(1, s.get("processStates").get("waiting").asLong());
        assertEquals(0, s.get("paused").asLong());
        JsonNode days = s.get("days");
        assertEquals(3, days.size());
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        assertEquals(
                count(
                        engine,
                        "SELECT count(*) FROM node WHERE (ctime AT TIME ZONE 'UTC')::date = (now() AT TIME ZONE 'UTC')::date"),
                days.get(today).asLong());
        assertTrue(s.has("nodeTypes") && !s.has("user"));

        JsonNode franks =
                admin().get("/api/v1/statistics?user=frank@example.org").json();
        assertEquals("frank@example.org", franks.get("user").asString());
        assertEquals(2, franks.get("total").asLong());
        assertEquals(1, franks.get("nodeTypes").get("data.core.int.Int.").asLong());
        assertEquals(30, franks.get("days").size());
    }

    @Test
    void theServerFoldsTheChangesInByItself() throws Exception {
        engine.graph().store(new IntData(7));
        long deadline =
                System.nanoTime() + TallyCompaction.EVERY.multipliedBy(3).toNanos();
        while (count(engine, "SELECT count(*) FROM node_tally_change") > 0) {
            assertTrue(System.nanoTime() < deadline, "the changes were not folded in within three rounds");
            Thread.sleep(200);
        }
        assertEquals(count(engine, "SELECT count(*) FROM node"), count(engine, "SELECT sum(nodes) FROM node_tally"));
        assertEquals(
                count(engine, "SELECT count(*) FROM node"), count(engine, "SELECT sum(nodes) FROM node_tally_day"));
        assertEquals(
                count(engine, "SELECT count(*) FROM node"),
                admin().get("/api/v1/statistics").json().get("total").asLong());
    }

    @Test
    void badParametersAreRefused() {
        assertRefused(admin().get("/api/v1/statistics?days=0"), 400, "days must be from 1 to 3660, not 0");
        assertRefused(admin().get("/api/v1/statistics?days=lots"), 400, "parameter 'days': 'lots' is not an integer");
        assertRefused(
                admin().get("/api/v1/statistics?user=nobody@example.org"),
                400,
                "parameter 'user': no user has the email 'nobody@example.org'");
    }
}
