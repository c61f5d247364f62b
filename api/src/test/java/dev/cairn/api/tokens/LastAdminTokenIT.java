package dev.cairn.api.tokens;

import static dev.cairn.api.testing.Refusals.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.UUID;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import dev.cairn.api.config.LocalAdminToken;
import dev.cairn.api.security.Role;
import dev.cairn.api.testing.ApiServices;
import dev.cairn.api.testing.ApiTest;

/**
 * Operators are never locked out: the last valid admin token that does not expire cannot be revoked (409,
 * saying what to do), and on the server's host the server jar makes a new admin token with no token at all
 * ({@code cairn token create --role admin --local} runs it), from the database settings alone.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LastAdminTokenIT extends ApiTest {

    @Test
    @Order(1)
    void theLastLastingAdminTokenCannotBeRevokedAndAnotherLetsTheFirstGo() {
        UUID first = tokens.bySecret(adminToken()).orElseThrow().uuid();
        // an admin token that expires and a read token do not keep the installation administrable
        String expiring = admin().post(
                        "/api/v1/tokens",
                        "{\"name\": \"a week\", \"roles\": [\"admin\"], \"expires\": \""
                                + OffsetDateTime.now().plusDays(7) + "\"}")
                .json()
                .get("secret")
                .asString();
        token(Role.READ);

        assertRefused(
                api(expiring).post("/api/v1/tokens/" + first + "/revoke", ""),
                409,
                "is the last valid admin token that does not expire",
                "cairn token create --role admin --local");
        assertEquals(200, admin().get("/api/v1/tokens").status(), "the first start's token still works");

        String second = token(Role.ADMIN);
        assertEquals(
                200,
                api(second).post("/api/v1/tokens/" + first + "/revoke", "").status(),
                "another lasting admin token");
        UUID secondUuid = tokens.bySecret(second).orElseThrow().uuid();
        assertRefused(api(second).post("/api/v1/tokens/" + secondUuid + "/revoke", ""), 409, secondUuid.toString());
    }

    @Test
    @Order(2) // locks the admin tokens out for good
    void anOperatorOnTheServersHostMakesAnAdminTokenWithNoTokenAtAll() throws Exception {
        // locked out as if every admin token had expired: nothing the API could undo
        try (Connection c = ApiServices.db().connect();
                Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE api_token SET expires = now() - interval '1 day' WHERE 'admin' = ANY (roles)");
        }
        // servers remember a token for a few seconds
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (admin().get("/api/v1/tokens").status() == 200 && System.nanoTime() < deadline) {
            Thread.sleep(250);
        }
        assertEquals(401, admin().get("/api/v1/tokens").status());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exit = LocalAdminToken.run(new String[] {
                "--cairn.local-admin-token=break-glass",
                "--cairn.data-dir=" + dataDir,
                "--cairn.database.url=" + ApiServices.db().jdbcUrl(),
                "--cairn.database.user=" + ApiServices.db().user(),
                "--cairn.database.password=" + ApiServices.db().password()
            });
        } finally {
            System.setOut(stdout);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        String secret =
                printed.lines().filter(l -> l.startsWith("cairn_")).findFirst().orElse(null);

        assertEquals(0, exit, printed);
        assertNotNull(secret, "the secret, alone on a line of standard output: " + printed);
        assertEquals(200, api(secret).get("/api/v1/tokens").status());
        assertTrue(api(secret).get("/api/v1/tokens").body().contains("break-glass"), "it is listed with its name");
    }
}
