package dev.cairn.api.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;

import org.junit.jupiter.api.Test;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/** Bearer tokens: the first start's admin token, refusals as problem details, revocation. */
class BearerTokensIT extends ApiTest {

    @Test
    void theFirstStartWritesAnAdminTokenOnlyItsOwnerCanRead() throws Exception {
        var file = dataDir.resolve("admin-token");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertTrue(adminToken().startsWith(TokenService.PREFIX), adminToken());
        var token = tokens.bySecret(adminToken()).orElseThrow();
        assertEquals(EnumSet.of(Role.ADMIN), token.roles());
    }

    @Test
    void theServerDescriptionIsOpenAndTheApiIsNot() {
        Api.Response info = api(null).get("/api/v1/server");
        assertEquals(200, info.status(), info.toString());
        assertEquals("cairn", info.json().get("name").asString());
        Api.Response none = api(null).get("/api/v1/nodes");
        assertEquals(401, none.status(), none.toString());
        assertEquals("Bearer", none.header("WWW-Authenticate"));
        assertEquals(
                "urn:cairn:problem:unauthenticated", none.json().get("type").asString());
        Api.Response bad = api("cairn_not-a-token").get("/api/v1/nodes");
        assertEquals(401, bad.status(), bad.toString());
        assertEquals(
                "the bearer token was refused: unknown token",
                bad.json().get("detail").asString());
    }

    @Test
    void aRevokedTokenIsRefused() throws Exception {
        TokenService.Issued issued = tokens.create(engine.graph().userId(), "to revoke", EnumSet.of(Role.READ), null);
        tokens.revoke(issued.token().uuid());
        Thread.sleep(TokenIntrospector.REMEMBER.toMillis());
        Api.Response r = api(issued.secret()).get("/api/v1/nodes");
        assertEquals(401, r.status(), r.toString());
        assertEquals(
                "the bearer token was refused: the token was revoked",
                r.json().get("detail").asString());
    }
}
