package dev.cairn.api.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpRequest;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiServices;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A read-only server ({@code cairn.security.read-only}) refuses every request that would change
 * something, whatever the token, admin included, and before anything is done; reading, and the posts
 * that only read (a query, a cache explanation, an archive's inspection), pass.
 */
@TestPropertySource(properties = "cairn.security.read-only=true")
class ReadOnlyIT extends ApiTest {

    @Test
    void everyWriteIsRefusedWhateverTheTokenAndNothingChanges() throws Exception {
        long tokensBefore = count("SELECT count(*) FROM api_token");
        long nodesBefore = count("SELECT count(*) FROM node");
        Api admin = admin();
        for (String method : List.of("POST", "PUT", "PATCH", "DELETE")) {
            for (String path : List.of(
                    "/api/v1/processes", "/api/v1/tokens", "/api/v1/nodes/0190c1a2/extras", "/api/v1/archive")) {
                Api.Response r = send(admin, method, path);
                assertEquals(403, r.status(), method + " " + path + ": " + r);
                assertEquals("urn:cairn:problem:read-only", r.json().get("type").asString());
                assertEquals(
                        "this server is read-only (cairn.security.read-only): " + method + " " + path
                                + " would change something",
                        r.json().get("detail").asString());
            }
        }
        Api.Response anonymous = send(api(null), "POST", "/api/v1/processes");
        assertEquals(403, anonymous.status(), anonymous.toString());
        assertEquals(tokensBefore, count("SELECT count(*) FROM api_token"));
        assertEquals(nodesBefore, count("SELECT count(*) FROM node"));
    }

    @Test
    void readingAndThePostsThatOnlyReadPass() {
        Api reader = api(token(Role.READ));
        OidcJwtIT.assertPassed(reader.get("/api/v1/nodes"));
        OidcJwtIT.assertPassed(send(reader, "POST", "/api/v1/query"));
        OidcJwtIT.assertPassed(send(reader, "POST", "/api/v1/query/stream"));
        OidcJwtIT.assertPassed(send(reader, "POST", "/api/v1/query/columns"));
        OidcJwtIT.assertPassed(send(reader, "POST", "/api/v1/processes/explain-cache"));
        OidcJwtIT.assertPassed(send(reader, "POST", "/api/v1/archive/inspection"));
        assertEquals(200, reader.get("/api/v1/server").status());
    }

    private static Api.Response send(Api api, String method, String path) {
        return api.send(api.request(path)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString("{}")));
    }

    private static long count(String sql) throws Exception {
        TestDatabase db = ApiServices.db();
        try (var c = db.connect();
                var s = c.createStatement();
                var rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
