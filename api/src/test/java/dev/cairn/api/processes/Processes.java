package dev.cairn.api.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Set;

import tools.jackson.databind.JsonNode;

import dev.cairn.api.testing.Api;

/** Launching and waiting for processes through the API, for the tests. */
public final class Processes {

    public static final Set<String> TERMINAL = Set.of("finished", "excepted", "killed");

    private Processes() {}

    /** Launches one process; returns its summary. */
    public static JsonNode launch(Api api, String entryPoint, String inputs) {
        Api.Response r =
                api.post("/api/v1/processes", "{\"entry_point\": \"" + entryPoint + "\", \"inputs\": " + inputs + "}");
        assertEquals(201, r.status(), r.toString());
        return r.json();
    }

    /** Waits until the process has ended; returns its detail. */
    public static JsonNode awaitEnd(Api api, String uuid, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Api.Response r = api.get("/api/v1/processes/" + uuid);
            assertEquals(200, r.status(), r.toString());
            JsonNode detail = r.json();
            if (TERMINAL.contains(detail.get("process").get("state").asString())) {
                return detail;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("process " + uuid + " did not end within " + timeout + ": " + detail);
            }
            Thread.sleep(50);
        }
    }

    /** Waits until the process is in {@code state}. */
    public static JsonNode awaitState(Api api, String uuid, String state, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode detail = api.get("/api/v1/processes/" + uuid).json();
            if (state.equals(detail.get("process").get("state").asString())) {
                return detail;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("process " + uuid + " is not " + state + " within " + timeout + ": " + detail);
            }
            Thread.sleep(50);
        }
    }
}
