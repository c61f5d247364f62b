package dev.cairn.engine.computers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestSshServer;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;

/**
 * Working folders removed on this machine and over SSH, in the order given (one of them under a name with a
 * quote, which the command must keep); a path that is not a job's folder refused and left as it is; a folder
 * rm cannot remove failing alone with what rm said; a computer that is down failing each folder with the
 * reason.
 */
class WorkdirRemovalIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.local();

    @TempDir
    static Path tmp;

    static ComputerStore computers;
    static TestSshServer sshd;

    @BeforeAll
    static void open() throws Exception {
        computers = new ComputerStore(fixture.engine().database());
        sshd = TestSshServer.start(Files.createDirectories(tmp.resolve("keys")));
    }

    @AfterAll
    static void close() throws Exception {
        sshd.close();
    }

    /** A job's folder as the engine lays them out, with a file and a subfolder in it. */
    private static Path jobFolder(Path workdir) throws Exception {
        String uuid = UUID.randomUUID().toString();
        Path folder = Files.createDirectories(
                workdir.resolve(uuid.substring(32, 34) + "/" + uuid.substring(34) + "/" + uuid));
        Files.writeString(Files.createDirectories(folder.resolve("out")).resolve("aiida.out"), "42\n");
        return folder;
    }

    @Test
    void foldersAreRemovedInOrderAndAnythingElseIsRefusedUntouched() throws Exception {
        Path workdir = tmp.resolve("local/work");
        Computer local = computers.create(new ComputerSpec(
                "here", "localhost", "", "core.local", "core.direct", Map.of("workdir", workdir.toString())));
        Path first = jobFolder(workdir);
        Path second = jobFolder(workdir.resolve("it's here"));
        Path notAJob = Files.createDirectories(workdir.resolve("shared/inputs"));
        String gone = workdir.resolve("aa/bb/" + UUID.randomUUID()).toString();

        List<WorkdirRemoval.Outcome> outcomes = fixture.engine()
                .removeWorkdirs(
                        local,
                        List.of(
                                first.toString(),
                                notAJob.toString(),
                                "relative/" + UUID.randomUUID(),
                                gone,
                                second.toString(),
                                workdir + "/../" + UUID.randomUUID(),
                                workdir + "/a\nb/" + UUID.randomUUID()));

        assertEquals(7, outcomes.size());
        assertTrue(outcomes.get(0).removed(), outcomes.toString());
        assertFalse(Files.exists(first));
        assertTrue(outcomes.get(1).failure().contains("does not end in a job's uuid"), outcomes.toString());
        assertTrue(Files.isDirectory(notAJob), "a folder that is not a job's stays");
        assertTrue(outcomes.get(2).failure().contains("is not an absolute path"), outcomes.toString());
        assertNull(outcomes.get(3).failure(), "a folder that is not there counts as removed");
        assertTrue(outcomes.get(4).removed(), outcomes.toString());
        assertFalse(Files.exists(second));
        assertTrue(outcomes.get(5).failure().contains("is not a plain path"), outcomes.toString());
        assertEquals(second.toString(), outcomes.get(4).path());
        assertTrue(outcomes.get(6).failure().contains("holds a control character"), outcomes.toString());
    }

    @Test
    void aFolderRmCannotRemoveFailsAloneWithWhatRmSaid() throws Exception {
        Path workdir = tmp.resolve("stuck/work");
        Computer local = computers.create(new ComputerSpec(
                "stuck", "localhost", "", "core.local", "core.direct", Map.of("workdir", workdir.toString())));
        Path stuck = jobFolder(workdir);
        Path kept = stuck.resolve("out/aiida.out");
        Path other = jobFolder(workdir);
        // an immutable file: not even root may remove it (ext4, as this machine's /tmp)
        chattr("+i", kept);
        try {
            List<WorkdirRemoval.Outcome> outcomes =
                    fixture.engine().removeWorkdirs(local, List.of(stuck.toString(), other.toString()));
            assertFalse(outcomes.get(0).removed());
            assertTrue(
                    outcomes.get(0).failure().startsWith("rm -rf could not remove it: rm: cannot remove '" + kept),
                    outcomes.toString());
            assertTrue(outcomes.get(1).removed(), outcomes.toString());
            assertTrue(Files.exists(kept));
            assertFalse(Files.exists(other));
        } finally {
            chattr("-i", kept);
        }
    }

    private static void chattr(String flag, Path file) throws Exception {
        Process p =
                new ProcessBuilder("chattr", flag, file.toString()).inheritIO().start();
        assertEquals(0, p.waitFor(), "chattr " + flag + " " + file);
    }

    @Test
    void overSshFoldersAreRemovedAndOnceTheComputerIsDownEachFailsWithTheReason() throws Exception {
        Path workdir = tmp.resolve("ssh/work");
        Map<String, Object> settings = Map.of(
                "workdir",
                workdir.toString(),
                "connection_keep_alive",
                0,
                "transport_params",
                sshd.transportParams(tmp.resolve("known_hosts")));
        Computer login =
                computers.create(new ComputerSpec("login", "127.0.0.1", "", "core.ssh", "core.direct", settings));
        Path removed = jobFolder(workdir);
        List<WorkdirRemoval.Outcome> up = fixture.engine().removeWorkdirs(login, List.of(removed.toString()));
        assertTrue(up.getFirst().removed(), up.toString());
        assertFalse(Files.exists(removed));

        Path kept = jobFolder(workdir);
        Path alsoKept = jobFolder(workdir);
        sshd.stop();
        try {
            List<WorkdirRemoval.Outcome> down =
                    fixture.engine().removeWorkdirs(login, List.of(kept.toString(), alsoKept.toString()));
            assertEquals(2, down.size());
            for (WorkdirRemoval.Outcome outcome : down) {
                assertFalse(outcome.removed());
                assertTrue(outcome.failure().startsWith("computer 'login' could not be reached: "), outcome.failure());
            }
            assertTrue(Files.isDirectory(kept) && Files.isDirectory(alsoKept));
        } finally {
            sshd.restart();
        }
    }
}
