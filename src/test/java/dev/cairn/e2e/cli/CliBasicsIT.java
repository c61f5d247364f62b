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

        // a second profile: --profile picks it for one command, use for all that follow, remove forgets it
        CairnCli.Run elsewhere =
                cairn.run("profile", "add", "elsewhere", "--server", "http://127.0.0.1:9", "--no-check");
        assertEquals(0, elsewhere.exit(), elsewhere.toString());
        assertFalse(elsewhere.out().contains("(in use)"), "the first profile stays in use: " + elsewhere);
        assertEquals(0, cairn.run("process", "list").exit());
        CairnCli.Run picked = cairn.run("process", "list", "--profile", "elsewhere");
        assertEquals(6, picked.exit(), "--profile elsewhere asks 127.0.0.1:9: " + picked);
        assertTrue(picked.err().contains("http://127.0.0.1:9"), picked.toString());
        CairnCli.Run use = cairn.run("profile", "use", "elsewhere");
        assertEquals(0, use.exit(), use.toString());
        assertEquals(
                "elsewhere",
                cairn.run("profile", "show", "--json").json().get("name").asString());
        assertEquals(6, cairn.run("process", "list").exit(), "the profile in use is elsewhere now");
        assertEquals(0, cairn.run("process", "list", "--profile", "lab").exit());
        CairnCli.Run unknown = cairn.run("profile", "use", "nowhere");
        assertEquals(2, unknown.exit(), unknown.toString());
        assertTrue(unknown.err().contains("no profile 'nowhere' (there are: elsewhere, lab)"), unknown.toString());
        assertEquals(0, cairn.run("profile", "use", "lab").exit());
        CairnCli.Run remove = cairn.run("profile", "remove", "elsewhere");
        assertEquals(0, remove.exit(), remove.toString());
        assertEquals(1, cairn.run("profile", "list", "--json").json().size());
        assertEquals(0, cairn.run("process", "list").exit());
    }

    @Test
    void theDistributionArchiveUnpacksIntoACommandThatWorks() throws Exception {
        Path target = CairnCli.launcher().getParent().getParent().getParent();
        Path archive;
        try (var archives = Files.list(target)) {
            archive = archives.filter(p -> p.getFileName().toString().matches("cairn-.+\\.tar\\.gz"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no cairn-<version>.tar.gz in " + target));
        }
        Path installed = Files.createDirectories(home.resolve("opt"));
        Process tar = new ProcessBuilder("tar", "xzf", archive.toString(), "-C", installed.toString())
                .inheritIO()
                .start();
        assertEquals(0, tar.waitFor(), "tar xzf " + archive);
        Path cairnHome = installed.resolve("cairn");
        assertAll(
                () -> assertTrue(Files.isExecutable(cairnHome.resolve("bin/cairn"))),
                () -> assertTrue(Files.size(cairnHome.resolve("lib/cairn.aot")) > 0, "the start-up cache"),
                () -> assertTrue(Files.isRegularFile(cairnHome.resolve("share/man/man1/cairn-process-list.1"))),
                () -> assertTrue(Files.isRegularFile(cairnHome.resolve("share/bash-completion/completions/cairn"))));

        CairnCli unpacked =
                CairnCli.against(home, server.url(), server.adminToken()).launcher(cairnHome.resolve("bin/cairn"));
        CairnCli.Run version = unpacked.run("--version");
        CairnCli.Run list = unpacked.run("process", "list", "-a", "--json");
        assertEquals(0, version.exit(), version.toString());
        assertTrue(version.out().startsWith("cairn "), version.toString());
        assertEquals(0, list.exit(), list.toString());
        assertTrue(list.json().isArray(), list.toString());
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
