package dev.cairn.engine.internal.calcjob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.graph.IntData;

class CalcJobRunnerTest {

    @Test
    void aWorkDirectoryIsShardedByTheRandomEndOfTheUuid() {
        assertEquals(
                "/scratch/cairn/40/1f/01a20741-cfb2-7f69-9bb5-312b766c401f",
                CalcJobRunner.workdirOf("/scratch/cairn//", "01a20741-cfb2-7f69-9bb5-312b766c401f"));
    }

    @Test
    void jobsMadeTogetherSpreadOverTheShards() {
        Set<String> shards = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            String dir = CalcJobRunner.workdirOf("/w", new IntData(i).uuid().toString());
            shards.add(dir.substring(0, "/w/xx/yy".length()));
        }
        // 200 uuids made within a millisecond or two share their first digits; their ends do not
        assertTrue(shards.size() > 150, shards.size() + " shards");
    }
}
