package dev.cairn.cli.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.JsonTrees;

/** What the command says it removes: folders, counted once however many jobs point at them. */
class WorkdirCleaningTest {

    private static List<JsonNode> jobs(String json) {
        List<JsonNode> jobs = new ArrayList<>();
        JsonTrees.parse(json).forEach(jobs::add);
        return jobs;
    }

    @Test
    void aJobFromTheCacheSharesItsSourcesFolderWhichCountsOnce() {
        List<JsonNode> jobs = jobs("""
                [{"computer": "here", "path": "/w/aa/bb/1", "outcome": "would clean"},
                 {"computer": "here", "path": "/w/aa/bb/1", "outcome": "would clean"},
                 {"computer": "there", "path": "/w/aa/bb/1", "outcome": "would clean"},
                 {"computer": "here", "path": "/w/cc/dd/2", "outcome": "skipped"}]""");
        assertEquals("2 folders of 3 calculation jobs", WorkdirCleaning.folders(jobs, "would clean"));
        assertEquals("1 folder of 1 calculation job", WorkdirCleaning.folders(jobs, "skipped"));
        assertNull(WorkdirCleaning.folders(jobs, "cleaned"));
    }
}
