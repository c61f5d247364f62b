package dev.cairn.api.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.SseClient;

/**
 * Event streams: every change a filter names, once, in id order; a reconnect with
 * {@code Last-Event-ID} gets exactly what was missed; a change that commits after a higher id
 * is held back for it.
 */
@TestPropertySource(
        properties = {"cairn.events.heartbeat=300ms", "cairn.events.gap-wait=30s", "cairn.events.linger=1s"})
class EventsIT extends ApiTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Autowired
    EventRetention retention;

    @Autowired
    EventHub hub;

    /**
     * With no stream open (for the linger) the hub stops following the broadcasts; the next stream finds
     * where live changes begin anew and misses nothing: what happened meanwhile comes from the table, then
     * the live changes, in id order, none twice.
     */
    @Test
    void aStreamOpenedAfterTheHubStoppedFollowingMissesNothing() throws Exception {
        String lastSeen;
        try (SseClient stream = SseClient.open(admin(), "/api/v1/events", null)) {
            assertTrue(hub.following(), "a stream is open");
            String first = launch("arithmetic.add_function", "{\"x\": 7, \"y\": 1}");
            lastSeen = stream.take(1, WAIT).getLast().id();
            awaitEnded(first);
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (hub.following()) {
            assertTrue(System.nanoTime() < deadline, "the hub still follows with no stream open");
            Thread.sleep(100);
        }
        List<String> unwatched = launchBatch(5);
        for (String uuid : unwatched) {
            awaitEnded(uuid);
        }
        try (SseClient again = SseClient.open(admin(), "/api/v1/events", lastSeen)) {
            assertTrue(hub.following());
            String live = launch("arithmetic.add_function", "{\"x\": 7, \"y\": 2}");
            awaitEnded(live);
            Set<Long> expected = eventIds("SELECT id FROM process_event WHERE id > " + lastSeen);
            List<SseClient.Event> events = again.take(expected.size(), WAIT);
            Thread.sleep(500);
            assertEquals(List.of(), again.drain(), "nothing more, and nothing twice");
            List<Long> ids = events.stream().map(SseClient.Event::eventId).toList();
            assertEquals(ids.stream().sorted().toList(), ids, "in id order");
            assertEquals(expected, new HashSet<>(ids));
            assertEquals(live, events.getLast().json().get("process").asString(), "the live change last");
        }
    }

    @Test
    void aClientThatReconnectsWithItsLastEventIdGetsWhatItMissedOnce() throws Exception {
        List<SseClient.Event> first;
        Set<Long> expected;
        List<SseClient.Event> second;
        try (SseClient stream = SseClient.open(admin(), "/api/v1/events", null)) {
            assertTrue(stream.contentType().startsWith("text/event-stream"), stream.contentType());
            launchBatch(30);
            launch("examples.sum_series", "{\"n\": 6, \"batch\": 2}");
            first = stream.take(5, WAIT);
            // gone mid-run: what happens now is missed, and must come after the reconnect
            stream.close();
            String last = first.getLast().id();
            try (SseClient again = SseClient.open(admin(), "/api/v1/events", last)) {
                awaitAllEnded();
                // the first stream began with the first change after it opened
                expected = eventIds("SELECT id FROM process_event WHERE id >= "
                        + first.getFirst().id());
                int missing = expected.size() - first.size();
                second = again.take(missing, WAIT);
                Thread.sleep(500);
                assertEquals(List.of(), again.drain(), "nothing more, and nothing twice");
            }
        }
        List<Long> ids = new ArrayList<>();
        first.forEach(e -> ids.add(Long.parseLong(e.id())));
        second.forEach(e -> ids.add(Long.parseLong(e.id())));
        assertEquals(ids.stream().sorted().toList(), ids, "ids ascend across the reconnect");
        assertEquals(expected, new HashSet<>(ids));
        assertEquals(ids.size(), new HashSet<>(ids).size(), "no change twice");
        for (SseClient.Event e : second) {
            assertEquals("state", e.name());
            assertEquals(Long.parseLong(e.id()), e.eventId());
        }
    }

    @Test
    void aTreeStreamFollowsAProcessAndWhatItCallsLaterAndNothingElse() throws Exception {
        String parent = launch("test.parent", "{\"seconds\": 2}");
        try (SseClient tree = SseClient.open(admin(), "/api/v1/events?tree=" + parent + "&last_event_id=0", null)) {
            String decoy = launch("arithmetic.add_multiply", "{\"x\": 1, \"y\": 2, \"z\": 3}");
            // created -> waiting (the child is launched), the child created -> finished, the parent waiting -> finished
            List<SseClient.Event> events = tree.take(3, WAIT);
            List<String> moves = events.stream()
                    .map(e -> e.json().get("entry_point").asString() + " "
                            + e.json().get("from").asString() + "->"
                            + e.json().get("to").asString())
                    .toList();
            assertEquals(
                    List.of(
                            "test.parent created->waiting",
                            "test.sleep created->finished",
                            "test.parent waiting->finished"),
                    moves);
            assertEquals(parent, events.get(0).json().get("process").asString());
            assertEquals(parent, events.get(1).json().get("caller").asString());
            assertTrue(events.get(2).json().get("caller").isNull());
            assertEquals(0, events.get(2).json().get("exit_status").asInt());
            awaitEnded(decoy);
            Thread.sleep(300);
            assertEquals(List.of(), tree.drain(), "the decoy is not in the tree");
        }
    }

    @Test
    void aProcessStreamGetsThatProcessOnlyAndAHeartbeatWhenIdle() throws Exception {
        Api reader = api(token(Role.READ));
        String parent = launch("test.parent", "{\"seconds\": 1}");
        try (SseClient one = SseClient.open(reader, "/api/v1/events?process=" + parent.substring(0, 30), "0")) {
            List<SseClient.Event> events = one.take(2, WAIT);
            assertEquals("waiting", events.get(0).json().get("to").asString());
            assertEquals("finished", events.get(1).json().get("to").asString());
            events.forEach(e -> assertEquals(parent, e.json().get("process").asString()));
            Thread.sleep(1000);
            assertEquals(List.of(), one.drain());
            assertTrue(one.comments() >= 2, "an opening comment and heartbeats: " + one.comments());
        }
    }

    /**
     * A step that took id A and has not committed, while a later step with id B > A commits: the
     * stream holds B back until A is settled, then sends A before B; a rolled-back A is passed over.
     */
    @Test
    void aChangeThatCommitsLateIsSentBeforeTheLaterOnesThatWaitedForIt() throws Exception {
        String done = launch("arithmetic.add_function", "{\"x\": 1, \"y\": 1}");
        awaitEnded(done);
        long processId = nodeId(done);
        for (boolean commit : List.of(true, false)) {
            try (SseClient stream = SseClient.open(admin(), "/api/v1/events", null);
                    Connection slow = engine.database().connection()) {
                slow.setAutoCommit(false);
                long early = insertEvent(slow, processId);
                String later = launch("arithmetic.add_function", "{\"x\": 2, \"y\": " + (commit ? 3 : 4) + "}");
                awaitEnded(later);
                assertNull(stream.next(Duration.ofMillis(700)), "held back while a lower id may still commit");
                if (commit) {
                    slow.commit();
                } else {
                    slow.rollback();
                }
                List<SseClient.Event> events = stream.take(commit ? 2 : 1, WAIT);
                if (commit) {
                    assertEquals(early, events.get(0).eventId());
                    assertEquals(done, events.get(0).json().get("process").asString());
                }
                SseClient.Event last = events.getLast();
                assertEquals(later, last.json().get("process").asString());
                assertTrue(last.eventId() > early);
            }
        }
    }

    /**
     * A job's move in its batch system, stored as the job poller stores it (the process stays waiting), is
     * sent with the scheduler states it left and entered; every other change with {@code scheduler} null.
     */
    @Test
    void aSchedulerMoveIsSentWithTheStatesItLeftAndEntered() throws Exception {
        String uuid = launch("arithmetic.add_function", "{\"x\": 7, \"y\": 3}");
        awaitEnded(uuid);
        long move;
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("INSERT INTO process_event (process_id, from_state, to_state,"
                        + " time, scheduler_from, scheduler_to) VALUES (?, 'waiting', 'waiting', clock_timestamp(),"
                        + " 'queued', 'running') RETURNING id")) {
            s.setLong(1, nodeId(uuid));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                move = rs.getLong(1);
            }
        }
        try (SseClient stream = SseClient.open(admin(), "/api/v1/events?process=" + uuid, "0")) {
            int kept = eventIds("SELECT id FROM process_event WHERE process_id = " + nodeId(uuid))
                    .size();
            List<SseClient.Event> events = stream.take(kept, WAIT);
            assertEquals(move, events.getLast().eventId());
            JsonNode data = events.getLast().json();
            assertEquals("waiting", data.get("from").asString());
            assertEquals("waiting", data.get("to").asString());
            assertEquals("queued", data.get("scheduler").get("from").asString());
            assertEquals("running", data.get("scheduler").get("to").asString());
            assertTrue(
                    events.getFirst().json().get("scheduler").isNull(),
                    events.getFirst().json().toString());
        }
    }

    @Test
    void badStreamRequestsAreRefused() {
        Api.Response both = admin().get("/api/v1/events?process=0190&tree=0190");
        assertEquals(400, both.status(), both.toString());
        Api.Response unknown = admin().get("/api/v1/events?process=" + UUID.randomUUID());
        assertEquals(404, unknown.status(), unknown.toString());
        Api.Response badId = admin().get("/api/v1/events?last_event_id=yesterday");
        assertEquals(400, badId.status(), badId.toString());
        assertTrue(badId.json().get("detail").asString().contains("is not an event id"), badId.toString());
        IllegalStateException asStream = assertThrows(
                IllegalStateException.class,
                () -> SseClient.open(admin(), "/api/v1/events?tree=" + UUID.randomUUID(), null));
        assertTrue(asStream.getMessage().startsWith("the stream answered 404: {"), asStream.getMessage());
        Api.Response anonymous = api(null).get("/api/v1/events");
        assertEquals(401, anonymous.status(), anonymous.toString());
    }

    @Test
    void changesOlderThanTheRetentionAreDeleted() throws Exception {
        String done = launch("arithmetic.add_function", "{\"x\": 5, \"y\": 5}");
        awaitEnded(done);
        long processId = nodeId(done);
        long old;
        try (Connection c = engine.database().connection()) {
            old = insertEvent(c, processId);
            try (PreparedStatement s =
                    c.prepareStatement("UPDATE process_event SET time = now() - interval '8 days' WHERE id = ?")) {
                s.setLong(1, old);
                s.executeUpdate();
            }
        }
        Set<Long> before = eventIds("SELECT id FROM process_event");
        assertEquals(1, retention.prune());
        Set<Long> after = eventIds("SELECT id FROM process_event");
        before.remove(old);
        assertEquals(before, after);
    }

    // --- helpers

    private String launch(String entryPoint, String inputs) {
        Api.Response r = admin().post(
                        "/api/v1/processes", "{\"entry_point\": \"" + entryPoint + "\", \"inputs\": " + inputs + "}");
        assertEquals(201, r.status(), r.toString());
        return r.json().get("uuid").asString();
    }

    private List<String> launchBatch(int n) {
        String body = IntStream.range(0, n)
                .mapToObj(i -> "{\"entry_point\": \"arithmetic.add_multiply\", \"inputs\": {\"x\": " + i
                        + ", \"y\": 1, \"z\": 2}}")
                .collect(Collectors.joining(",", "{\"launches\": [", "]}"));
        Api.Response r = admin().post("/api/v1/processes/batch", body);
        assertEquals(201, r.status(), r.toString());
        List<String> uuids = new ArrayList<>();
        r.json().get("processes").forEach(p -> uuids.add(p.get("uuid").asString()));
        return uuids;
    }

    private void awaitEnded(String uuid) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            JsonNode p = admin().get("/api/v1/processes/" + uuid).json().get("process");
            if (Set.of("finished", "excepted", "killed").contains(p.get("state").asString())) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "still " + p);
            Thread.sleep(50);
        }
    }

    private void awaitAllEnded() throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (admin().get("/api/v1/processes?state=created,waiting")
                        .json()
                        .get("items")
                        .size()
                > 0) {
            assertTrue(System.nanoTime() < deadline, "processes still live");
            Thread.sleep(100);
        }
    }

    private long nodeId(String uuid) throws SQLException {
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT id FROM node WHERE uuid = ?::uuid")) {
            s.setString(1, uuid);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** A change written by hand, as a step writes one; committed with {@code c}'s transaction. */
    private static long insertEvent(Connection c, long processId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO process_event (process_id, from_state, to_state,"
                + " exit_status, time) VALUES (?, 'created', 'finished', 0, clock_timestamp()) RETURNING id")) {
            s.setLong(1, processId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private Set<Long> eventIds(String sql) throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(sql);
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }
}
