package dev.cairn.e2e.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.cairn.e2e.CairnCli;
import dev.cairn.e2e.CairnServerProcess;
import dev.cairn.e2e.LocalComputer;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * {@code cairn shell run} against a real server: a local file uploaded and its placeholder filled, a
 * value, an output file, a failing command's exit code, --submit, a program the computer lacks
 * refused with the server's message, and a refused job's uploads deleted again.
 */
class ShellCommandsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path dataDir;

    @TempDir
    static Path home;

    static CairnServerProcess server;

    @BeforeAll
    static void startServer() {
        server = CairnServerProcess.builder("cli-shell", dataDir)
                .database(db)
                .broker(broker)
                .start()
                .awaitReady();
        LocalComputer.register(server, dataDir.resolve("work"));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static CairnCli cairn() {
        return CairnCli.against(home, server.url(), server.adminToken());
    }

    @Test
    void aCommandRunsOnAnUploadedFileAndPrintsItsOutputs() throws Exception {
        Path data = Files.writeString(home.resolve("data.csv"), "a\nb\nc\n");
        CairnCli.Run wc = cairn().run("shell", "run", "wc -l {data}", "--input", "data=@" + data);
        assertEquals(0, wc.exit(), wc.toString());
        assertTrue(wc.out().contains("Finished [0]"), wc.toString());
        assertTrue(wc.out().contains("stdout:\n3 data.csv\n"), wc.toString());

        CairnCli.Run made =
                cairn().run("shell", "run", "bash -c 'seq {n} > numbers.txt'", "--value", "n=4", "--output", "*.txt");
        assertEquals(0, made.exit(), made.toString());
        assertTrue(made.out().contains("numbers_txt"), made.toString());

        CairnCli.Run json = cairn().run("shell", "run", "echo {x}", "--value", "x=1.5", "--json");
        assertEquals(0, json.exit(), json.toString());
        assertEquals(
                "core.shell", json.json().path("process").path("entry_point").asString());
        assertTrue(json.json().path("outputs").has("stdout"), json.toString());
        // what the scheduler's last poll said of the job: no longer listed, so done
        CairnCli.Run show = cairn().run(
                        "process",
                        "show",
                        json.json().path("process").path("uuid").asString());
        assertEquals(0, show.exit(), show.toString());
        assertTrue(show.out().lines().anyMatch(l -> l.matches("\\s*scheduler\\s+done\\s*")), show.toString());
        assertTrue(
                show.out()
                        .lines()
                        .anyMatch(l -> l.matches("\\s*last checked\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d .*")),
                show.toString());
        // seen as a zombie not yet reaped, or gone from the listing
        assertTrue(
                show.out()
                        .lines()
                        .anyMatch(l -> l.matches("\\s*job info\\s+(substate Z|not in the scheduler's listing).*")),
                show.toString());
    }

    @Test
    void watchSaysWhatTheSchedulerSaidOfTheJob() {
        // long enough for the watch to be open before the job ends
        CairnCli.Run submitted = cairn().run("shell", "run", "sleep 4", "--submit");
        assertEquals(0, submitted.exit(), submitted.toString());
        CairnCli.Run watched = cairn().run("process", "watch", submitted.out().strip());
        assertEquals(0, watched.exit(), watched.toString());
        assertTrue(
                watched.out()
                        .lines()
                        .anyMatch(l -> l.matches(".*  core\\.shell  waiting \\(scheduler: (running -> )?done\\)")),
                watched.toString());
    }

    @Test
    void aFailingCommandEndsWithExitCode1AndItsExitStatus() {
        CairnCli.Run failed = cairn().run("shell", "run", "bash -c 'echo broken >&2; exit 3'");
        assertEquals(1, failed.exit(), failed.toString());
        assertTrue(
                failed.out().contains("ERROR_COMMAND_FAILED: the command exited with status 3: broken"),
                failed.toString());

        CairnCli.Run submitted = cairn().run("shell", "run", "sleep 1", "--submit");
        assertEquals(0, submitted.exit(), submitted.toString());
        assertTrue(submitted.out().strip().matches("[0-9a-f-]{36}"), submitted.toString());
    }

    @Test
    void aProgramTheComputerLacksIsRefusedWithTheServersMessage() {
        CairnCli.Run missing = cairn().run("shell", "run", "no-such-program-cairn --flag");
        assertEquals(2, missing.exit(), missing.toString());
        assertTrue(
                missing.err().contains("command 'no-such-program-cairn' was not found on computer 'localhost'"),
                missing.toString());
        CairnCli.Run badInput = cairn().run("shell", "run", "cat {x}", "--input", "x");
        assertEquals(2, badInput.exit(), badInput.toString());
        assertTrue(badInput.err().contains("--input 'x' is not NAME=REF"), badInput.toString());
    }

    @Test
    void jobOptionsReachTheJobTypedAsTheServerTypesThem() throws Exception {
        CairnCli.Run run = cairn().run(
                        "shell",
                        "run",
                        "printenv GREETING",
                        "--option",
                        "environment_variables.GREETING=12",
                        "--option",
                        "num_mpiprocs_per_machine=1",
                        "--option",
                        "max_wallclock_seconds=600",
                        "--option",
                        "prepend_text=export UNUSED=1",
                        "--json");
        assertEquals(0, run.exit(), run.toString());
        String uuid = run.json().path("process").path("uuid").asString();
        CairnCli.Run stdout = cairn().run(
                        "node",
                        "repo",
                        "cat",
                        run.json().path("outputs").path("stdout").path("uuid").asString(),
                        "stdout");
        assertEquals("12\n", stdout.out(), stdout.toString());
        CairnCli.Run attributes = cairn().run("node", "attributes", uuid, "--json");
        assertEquals(0, attributes.exit(), attributes.toString());
        JsonNode stored = attributes.json();
        assertEquals(600, stored.path("max_wallclock_seconds").asInt(), stored.toString());
        assertEquals(
                1, stored.path("resources").path("num_mpiprocs_per_machine").asInt(), stored.toString());
        assertEquals("12", stored.path("environment_variables").path("GREETING").asString(), stored.toString());
        assertEquals("export UNUSED=1", stored.path("prepend_text").asString(), stored.toString());
    }

    @Test
    void aJobOptionTheServerLacksOrOfTheWrongTypeIsRefusedAndNothingIsStored() throws Exception {
        long before = processes();
        CairnCli.Run unknown = cairn().run("shell", "run", "echo hi", "--option", "num_machine=2");
        assertEquals(2, unknown.exit(), unknown.toString());
        assertTrue(
                unknown.err().contains("core.shell has no job option 'num_machine'; it has num_machines,"),
                unknown.toString());
        CairnCli.Run mistyped = cairn().run("shell", "run", "echo hi", "--option", "max_wallclock_seconds=soon");
        assertEquals(2, mistyped.exit(), mistyped.toString());
        assertTrue(
                mistyped.err().contains("--option max_wallclock_seconds=soon: expected an integer"),
                mistyped.toString());
        CairnCli.Run refused = cairn().run("shell", "run", "echo hi", "--option", "num_machines=0");
        assertEquals(2, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("metadata 'options.resources.num_machines'"), refused.toString());
        assertEquals(before, processes(), "a refused job was stored");
    }

    @Test
    void cleanworkdirRemovesAnEndedJobsFolderOnlyWhenToldTo() throws Exception {
        CairnCli.Run run = cairn().run("shell", "run", "echo scratch", "--json");
        assertEquals(0, run.exit(), run.toString());
        String uuid = run.json().path("process").path("uuid").asString();
        Path folder = Path.of(cairn().run("node", "attributes", uuid, "--json")
                .json()
                .path("remote_workdir")
                .asString());
        assertTrue(Files.isDirectory(folder), folder.toString());

        CairnCli.Run none = cairn().run("calcjob", "cleanworkdir");
        assertEquals(2, none.exit(), none.toString());
        CairnCli.Run unasked = cairn().run("calcjob", "cleanworkdir", uuid);
        assertEquals(2, unasked.exit(), unasked.toString());
        assertTrue(unasked.err().contains("give --force"), unasked.toString());
        CairnCli.Run dry = cairn().run("calcjob", "cleanworkdir", uuid, "--dry-run");
        assertEquals(0, dry.exit(), dry.toString());
        assertTrue(dry.out().contains("would clean") && dry.out().contains(folder.toString()), dry.toString());
        assertTrue(dry.err().contains("1 folder of 1 calculation job would be removed"), dry.toString());
        assertTrue(Files.isDirectory(folder), "neither a refusal nor a dry run removes anything");

        CairnCli.Run cleaned = cairn().run("calcjob", "cleanworkdir", uuid, "--force");
        assertEquals(0, cleaned.exit(), cleaned.toString());
        assertTrue(cleaned.out().contains("cleaned"), cleaned.toString());
        assertTrue(cleaned.err().contains("removed 1 folder of 1 calculation job"), cleaned.toString());
        assertFalse(Files.exists(folder), "the folder is gone");

        CairnCli.Run again = cairn().run("calcjob", "cleanworkdir", uuid, "--force");
        assertEquals(0, again.exit(), again.toString());
        assertTrue(again.out().contains("its folder was cleaned before"), again.toString());

        // by filter: every ended shell job of this class, this one among them as cleaned before
        CairnCli.Run byFilter =
                cairn().run("calcjob", "cleanworkdir", "--all", "--type", "core.shell", "--force", "--json");
        assertEquals(0, byFilter.exit(), byFilter.toString());
        assertTrue(byFilter.json().size() > 1, byFilter.toString());
        for (JsonNode job : byFilter.json()) {
            String outcome = job.path("outcome").asString();
            assertTrue(outcome.equals("cleaned") || outcome.equals("skipped"), job.toString());
        }
    }

    @Test
    void nodeDeleteRemovesTheJobsFoldersFirstWhenToldAndDeletesNothingWhenOneStays() throws Exception {
        String kept = job("bash -c 'echo kept > kept.txt'");
        Path keptFolder = folder(kept);
        Path stuck = keptFolder.resolve("kept.txt");
        chattr("+i", stuck);
        try {
            CairnCli.Run refused = cairn().run("node", "delete", kept, "--force", "--clean-workdir");
            assertEquals(1, refused.exit(), refused.toString());
            assertTrue(refused.out().contains("failed"), refused.toString());
            assertTrue(
                    refused.err().contains("1 working folder could not be removed, each says why; nothing deleted"),
                    refused.toString());
            assertEquals(0, cairn().run("node", "show", kept).exit(), "the job is still there");
        } finally {
            chattr("-i", stuck);
        }

        String doomed = job("echo doomed");
        Path folder = folder(doomed);
        CairnCli.Run dry = cairn().run("node", "delete", doomed, "--dry-run", "--clean-workdir");
        assertEquals(0, dry.exit(), dry.toString());
        assertTrue(dry.out().contains(folder.toString()), dry.toString());
        assertTrue(dry.err().contains("1 folder of 1 calculation job would be removed first"), dry.toString());
        assertTrue(Files.isDirectory(folder), "a dry run removes nothing");

        CairnCli.Run deleted = cairn().run("node", "delete", doomed, "--force", "--clean-workdir");
        assertEquals(0, deleted.exit(), deleted.toString());
        assertTrue(deleted.err().contains("removed 1 folder of 1 calculation job"), deleted.toString());
        assertTrue(deleted.err().contains("deleted "), deleted.toString());
        assertFalse(Files.exists(folder), "the folder is gone");
        assertEquals(3, cairn().run("node", "show", doomed).exit(), "the job is gone");
    }

    /** A shell job of {@code command}, run to its end; its uuid. */
    private static String job(String command) {
        CairnCli.Run run = cairn().run("shell", "run", command, "--json");
        assertEquals(0, run.exit(), run.toString());
        return run.json().path("process").path("uuid").asString();
    }

    /** The job's working folder, which is there. */
    private static Path folder(String job) {
        Path folder = Path.of(cairn().run("node", "attributes", job, "--json")
                .json()
                .path("remote_workdir")
                .asString());
        assertTrue(Files.isDirectory(folder), folder.toString());
        return folder;
    }

    private static void chattr(String flag, Path file) throws Exception {
        Process p =
                new ProcessBuilder("chattr", flag, file.toString()).inheritIO().start();
        assertEquals(0, p.waitFor(), "chattr " + flag + " " + file);
    }

    @Test
    void aRefusedJobLeavesNoneOfItsUploadedFilesBehind() throws Exception {
        Path data = Files.writeString(home.resolve("refused.csv"), "1\n");
        Path folder = Files.createDirectories(home.resolve("refused-inputs"));
        Files.writeString(Files.createDirectories(folder.resolve("sub")).resolve("a.txt"), "a");
        long before = unlinkedFiles();

        CairnCli.Run missing = cairn().run(
                        "shell",
                        "run",
                        "no-such-program-cairn {data} {inputs}",
                        "--input",
                        "data=@" + data,
                        "--input",
                        "inputs=@" + folder);
        assertEquals(2, missing.exit(), missing.toString());
        assertTrue(missing.err().contains("'no-such-program-cairn' was not found on computer"), missing.toString());
        CairnCli.Run placeholder = cairn().run("shell", "run", "cat {data} {other}", "--input", "data=@" + data);
        assertEquals(2, placeholder.exit(), placeholder.toString());
        assertTrue(placeholder.err().contains("no input nodes.other"), placeholder.toString());
        // a path that is not there is refused before the others are sent
        CairnCli.Run gone = cairn().run(
                        "shell",
                        "run",
                        "cat {data} {gone}",
                        "--input",
                        "data=@" + data,
                        "--input",
                        "gone=@" + home.resolve("gone.csv"));
        assertEquals(2, gone.exit(), gone.toString());
        assertTrue(gone.err().contains("--input: no file or folder " + home.resolve("gone.csv")), gone.toString());
        assertEquals(before, unlinkedFiles(), "files uploaded for refused jobs were left behind");

        // a job that is taken keeps its upload, as its input
        CairnCli.Run taken = cairn().run("shell", "run", "cat {data}", "--input", "data=@" + data);
        assertEquals(0, taken.exit(), taken.toString());
        assertEquals(before, unlinkedFiles());
    }

    private static long processes() throws SQLException {
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM node n WHERE n.node_type LIKE 'process.%'")) {
            r.next();
            return r.getLong(1);
        }
    }

    /** File and folder nodes that no link touches: what a refused job's uploads would be. */
    private static long unlinkedFiles() throws SQLException {
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM node n WHERE n.node_type IN"
                        + " ('data.core.singlefile.SinglefileData.', 'data.core.folder.FolderData.')"
                        + " AND NOT EXISTS (SELECT 1 FROM link l WHERE l.input_id = n.id OR l.output_id = n.id)")) {
            r.next();
            return r.getLong(1);
        }
    }
}
