package dev.cairn.api.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * POST /api/v1/processes/clean-workdir on a local computer: a finished job's folder removed from the disk and
 * recorded, the job and its copy from the cache no longer cache sources, a workflow's jobs found through its
 * calls, a running job and a running workflow's jobs left alone, a dry run that removes nothing.
 */
@TestPropertySource(properties = "cairn.caching=all")
class WorkdirCleaningIT extends ApiTest {

    private static final Duration END = Duration.ofSeconds(60);

    @BeforeEach
    void localhost() {
        localComputer("localhost", dataDir.resolve("work"));
    }

    @Test
    void aFinishedJobsFolderIsRemovedRecordedAndNoLongerACacheSource() throws Exception {
        Api submitter = api(token(Role.SUBMIT));
        String first = shellJob(submitter, "echo cleaned-once");
        Path folder = Path.of(attributes(first).get("remote_workdir").asString());
        assertTrue(Files.isRegularFile(folder.resolve("_cairn_submit.sh")), folder.toString());
        String copy = shellJob(submitter, "echo cleaned-once");
        assertEquals(first, extras(copy).path("_cairn_cached_from").asString(), "the second run came from the cache");

        JsonNode dry = clean(submitter, "{\"processes\": [\"" + first + "\"]}", true);
        assertEquals(1, dry.get("cleaned").asInt(), dry.toString());
        assertEquals("would clean", dry.get("jobs").get(0).get("outcome").asString(), dry.toString());
        assertTrue(Files.isDirectory(folder), "a dry run removes nothing");

        JsonNode done = clean(submitter, "{\"processes\": [\"" + first + "\", \"" + copy + "\"]}", false);
        assertEquals(2, done.get("cleaned").asInt(), done.toString());
        assertEquals(0, done.get("failed").asInt(), done.toString());
        assertEquals(folder.toString(), done.get("jobs").get(0).get("path").asString());
        assertEquals("localhost", done.get("jobs").get(0).get("computer").asString());
        assertFalse(Files.exists(folder), "the job's folder is gone");
        for (String job : new String[] {first, copy}) {
            assertFalse(extras(job).path("_cairn_valid_cache").asBoolean(true), job + " is no cache source now");
            assertEquals(
                    "its work directory was cleaned",
                    extras(job).path("_cairn_invalid_cache_reason").asString());
            String remote = outputs(job).get("remote_folder").get("uuid").asString();
            assertTrue(extras(remote).path("cleaned").asBoolean(false), "remote_folder of " + job + " is marked");
        }

        String third = shellJob(submitter, "echo cleaned-once");
        assertTrue(extras(third).path("_cairn_cached_from").isMissingNode(), "ran anew, not from a cleaned job");
        assertTrue(Files.isDirectory(
                Path.of(attributes(third).get("remote_workdir").asString())));

        JsonNode again = clean(submitter, "{\"processes\": [\"" + first + "\"]}", false);
        assertEquals(0, again.get("cleaned").asInt(), again.toString());
        assertEquals("skipped", again.get("jobs").get(0).get("outcome").asString());
        assertEquals(
                "its folder was cleaned before",
                again.get("jobs").get(0).get("detail").asString());
    }

    @Test
    void aWorkflowsJobsAreFoundThroughItsCallsAndRunningOnesAreLeftAlone() throws Exception {
        String shell = shellJob(admin(), "bash -c 'echo code'");
        String code = Processes.awaitEnd(admin(), shell, END)
                .get("inputs")
                .get("code")
                .get("uuid")
                .asString();
        String workflow = Processes.launch(
                        admin(),
                        "arithmetic.add_calcjob_workchain",
                        "{\"code\": {\"uuid\": \"" + code + "\"}, \"x\": 2, \"y\": 3}")
                .get("uuid")
                .asString();
        assertEquals(
                0,
                Processes.awaitEnd(admin(), workflow, END)
                        .get("exit_code")
                        .get("status")
                        .asInt());

        Api.Response sleeping = admin().post("/api/v1/shell-jobs", "{\"command\": \"sleep 60\"}");
        String running = sleeping.json().get("uuid").asString();
        Processes.awaitState(admin(), running, "waiting", END);

        JsonNode done = clean(admin(), "{\"processes\": [\"" + workflow + "\", \"" + running + "\"]}", false);
        Map<String, JsonNode> byOutcome = new HashMap<>();
        done.get("jobs").forEach(j -> byOutcome.put(j.get("outcome").asString(), j));
        assertEquals(1, done.get("cleaned").asInt(), done.toString());
        JsonNode job = byOutcome.get("cleaned");
        assertEquals(
                "arithmetic.add",
                Processes.awaitEnd(admin(), job.get("process").asString(), END)
                        .get("process")
                        .get("entry_point")
                        .asString());
        assertFalse(Files.exists(Path.of(job.get("path").asString())));
        JsonNode skipped = byOutcome.get("skipped");
        assertEquals(running, skipped.get("process").asString(), done.toString());
        assertEquals("it is waiting", skipped.get("detail").asString());
        Path live = Path.of(attributes(running).get("remote_workdir").asString());
        assertTrue(Files.isDirectory(live), "a running job's folder stays");

        assertEquals(
                200, admin().post("/api/v1/processes/" + running + "/kill", "").status());
        Processes.awaitEnd(admin(), running, END);
    }

    @Test
    void anEmptyFilterIsRefusedAndTheReadRoleMayNotClean() {
        Api.Response empty = admin().post("/api/v1/processes/clean-workdir", "{}");
        assertEquals(400, empty.status(), empty.toString());
        assertTrue(empty.body().contains("the filter is empty"), empty.body());
        Api.Response reader = api(token(Role.READ)).post("/api/v1/processes/clean-workdir?all=true", "{}");
        assertEquals(403, reader.status(), reader.toString());
    }

    private static String shellJob(Api api, String command) throws InterruptedException {
        Api.Response r = api.post("/api/v1/shell-jobs", "{\"command\": \"" + command + "\"}");
        assertEquals(201, r.status(), r.toString());
        String uuid = r.json().get("uuid").asString();
        JsonNode detail = Processes.awaitEnd(api, uuid, END);
        assertEquals(0, detail.get("exit_code").get("status").asInt(), detail.toString());
        return uuid;
    }

    private static JsonNode clean(Api api, String filter, boolean dryRun) {
        Api.Response r = api.post("/api/v1/processes/clean-workdir?dry_run=" + dryRun, filter);
        assertEquals(200, r.status(), r.toString());
        assertEquals(dryRun, r.json().get("dry_run").asBoolean());
        return r.json();
    }

    private JsonNode attributes(String uuid) {
        return admin().get("/api/v1/nodes/" + uuid).json().get("attributes");
    }

    private JsonNode extras(String uuid) {
        return admin().get("/api/v1/nodes/" + uuid).json().get("extras");
    }

    private JsonNode outputs(String uuid) {
        return admin().get("/api/v1/processes/" + uuid).json().get("outputs");
    }
}
