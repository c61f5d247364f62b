package dev.cairn.api.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoReportTest {

    private static final String RAN = "01a20e2c-49f9-7c54-955f-693d924d416d";
    private static final String CACHED = "01a20e2c-4c4d-76c6-ac52-675e6a55c3b2";
    private static final String SOURCE = "01a20e2c-4a84-7925-82b1-c4dccb060b6c";

    private static DemoReport report(Path tokenFile, String baseUrl) {
        return report(tokenFile, baseUrl, true);
    }

    private static DemoReport report(Path tokenFile, String baseUrl, boolean tokenWorks) {
        return new DemoReport(
                List.of(
                        new DemoOutcome(
                                RAN,
                                "arithmetic.add_multiply(x=2, y=3, z=4)",
                                "finished",
                                0,
                                20L,
                                Duration.ofMillis(60),
                                null),
                        new DemoOutcome(
                                CACHED,
                                "arithmetic.add(code=bash@localhost, x=4, y=5), use_cache",
                                "finished",
                                0,
                                9L,
                                Duration.ofMillis(10),
                                SOURCE)),
                1,
                0,
                109,
                baseUrl,
                tokenFile,
                tokenWorks,
                tokenFile.getParent());
    }

    @Test
    void aTokenFileWhoseTokenNoLongerWorksIsSaidSoWithTheWayBackIn() {
        String works = report(Path.of("/srv/cairn/admin-token"), "http://localhost:8080", true)
                .text();
        String dead = report(Path.of("/srv/cairn/admin-token"), "http://localhost:8080", false)
                .text();

        assertFalse(works.contains("no longer works"), works);
        assertTrue(
                dead.contains("  admin token  /srv/cairn/admin-token (data directory /srv/cairn)\n"
                        + "               no longer works (revoked or expired): `cairn token create --role admin"
                        + " --local --data-dir /srv/cairn` makes a new admin token on this host\n"),
                dead);
    }

    @Test
    void tableShowsEachProcessWithItsUuidAndWhetherItRanOrWasCached() {
        String text = report(Path.of("/home/u/.cairn/admin-token"), "http://localhost:8080")
                .text();

        assertTrue(
                text.matches("(?s).*\\Qarithmetic.add_multiply(x=2, y=3, z=4)\\E +finished +0 +20 +0\\.06 s +ran +"
                        + RAN + "\n.*"),
                text);
        assertTrue(text.contains("finished      0       9    0.01 s  cached  " + CACHED), text);
        assertTrue(text.contains("took the outputs of " + SOURCE), text);
        assertTrue(
                text.contains(
                        "The graph held 1 node before this run (0 processes among them); it holds 109 nodes now."),
                text);
        assertTrue(text.contains("  Web view     http://localhost:8080/ui (sign in with the admin token)\n"), text);
        assertTrue(text.contains("  Swagger UI   http://localhost:8080/swagger-ui.html\n"), text);
    }

    @Test
    void curlCommandsReadTheTokenFileEvenWhenItsPathHasSpacesAndQuotes(@TempDir Path dir) throws Exception {
        Path tokenFile = dir.resolve("it's a dir").resolve("admin-token");
        Files.createDirectories(tokenFile.getParent());
        Files.writeString(tokenFile, "cairn_secret\n");
        String curl = report(tokenFile, "http://localhost:8080").curlCommands().get(0);
        // what bash makes of the header argument, without sending anything
        String header = curl.substring(curl.indexOf("-H ") + 3, curl.lastIndexOf(" http"));

        Process echo = new ProcessBuilder("bash", "-c", "printf %s " + header).start();
        String out = new String(echo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertEquals(0, echo.waitFor());
        assertEquals("Authorization: Bearer cairn_secret", out);
    }

    @Test
    void withoutTheApiRoleThereAreNoAddresses() {
        String text = report(Path.of("/t/admin-token"), null).text();

        assertTrue(text.contains("This JVM serves no API"), text);
        assertTrue(!text.contains("curl"), text);
    }
}
