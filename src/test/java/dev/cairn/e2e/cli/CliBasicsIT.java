package dev.cairn.e2e.cli;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.e2e.CairnCli;
import dev.cairn.e2e.CairnServerProcess;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * The launcher as a person meets it: help and version, profiles against a real server, and what a
 * wrong command, an unreachable server and a wrong token print and exit with (ExitCodes).
 */
class CliBasicsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path dataDir;

    static CairnServerProcess server;

    @TempDir
    Path home;

    @BeforeAll
    static void startServer() {
        server = CairnServerProcess.builder("cli-basics", dataDir)
                .database(db)
                .broker(broker)
                .start()
                .awaitReady();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void helpAndVersionSucceedAndAWrongCommandIsAUsageError() {
        CairnCli cairn = new CairnCli(home);
        CairnCli.Run help = cairn.run("--help");
        CairnCli.Run version = cairn.run("--version");
        CairnCli.Run wrong = cairn.run("porcess", "list");
        assertAll(
                () -> assertEquals(0, help.exit(), help.toString()),
                () -> assertTrue(help.out().contains("Exit codes:"), help.toString()),
                () -> assertEquals(0, version.exit(), version.toString()),
                () -> assertTrue(version.out().startsWith("cairn "), version.toString()),
                () -> assertEquals(2, wrong.exit(), wrong.toString()),
                () -> assertTrue(wrong.err().contains("porcess"), wrong.toString()));
    }

    @Test
    void aProfileKeepsTheServerAndTokenAndIsCheckedWhenAdded() throws Exception {
        Path tokenFile = home.resolve("token");
        Files.writeString(tokenFile, server.adminToken() + "\n");
        CairnCli cairn = new CairnCli(home);

        CairnCli.Run add = cairn.run(
                "profile", "add", "lab", "--server", server.url().toString(), "--token-file", tokenFile.toString());
        CairnCli.Run list = cairn.run("profile", "list", "--json");
        CairnCli.Run show = cairn.run("profile", "show");

        assertEquals(0, add.exit(), add.toString());
        assertEquals(0, list.exit(), list.toString());
        assertEquals("lab", list.json().get(0).get("name").asString());
        assertTrue(list.json().get(0).get("current").asBoolean(), list.toString());
        assertTrue(list.json().get(0).get("token").asBoolean(), list.toString());
        assertTrue(show.out().contains(server.url().toString()), show.toString());
        assertFalse(Files.readString(home.resolve("config/profiles.json")).contains(server.adminToken()));

        Files.writeString(tokenFile, "not-a-token");
        CairnCli.Run refused = cairn.run(
                "profile", "add", "bad", "--server", server.url().toString(), "--token-file", tokenFile.toString());
        assertEquals(4, refused.exit(), refused.toString());
        assertTrue(refused.err().startsWith("cairn: "), "one line saying what was wrong: " + refused);
        assertTrue(refused.err().contains("hint:"), refused.toString());
        assertFalse(refused.err().contains("\tat "), "no stack trace without --verbose: " + refused);
        assertFalse(cairn.run("profile", "list").out().contains("bad"), "a refused profile is not kept");
    }

    @Test
    void anUnreachableServerIsExitCodeSixWithAHint() {
        CairnCli cairn = new CairnCli(home);
        CairnCli.Run add = cairn.run("profile", "add", "away", "--server", "http://127.0.0.1:9");
        CairnCli.Run verbose = cairn.run("profile", "add", "away", "--server", "http://127.0.0.1:9", "--verbose");
        assertAll(
                () -> assertEquals(6, add.exit(), add.toString()),
                () -> assertTrue(add.err().contains("cannot reach the server at http://127.0.0.1:9"), add.toString()),
                () -> assertTrue(add.err().contains("cairn up"), add.toString()),
                () -> assertTrue(verbose.err().contains("\tat "), "--verbose adds the stack trace: " + verbose));
    }
}
