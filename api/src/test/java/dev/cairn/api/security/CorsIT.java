package dev.cairn.api.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * CORS as configured ({@code cairn.security.cors-origins}): a browser page of an allowed origin gets
 * the headers that let it call the API and read its answers, errors included; a page of any other
 * origin is refused, preflight and actual request alike, and gets none of them.
 */
@TestPropertySource(properties = "cairn.security.cors-origins=https://lab.example.org")
class CorsIT extends ApiTest {

    static final String ALLOWED = "https://lab.example.org";
    static final String OTHER = "https://elsewhere.example.com";

    @Test
    void aPreflightFromAnAllowedOriginIsAnsweredWithWhatItMaySend() {
        Api.Response r = preflight(ALLOWED);
        assertEquals(200, r.status(), r.toString());
        assertEquals(ALLOWED, r.header("Access-Control-Allow-Origin"));
        assertTrue(r.header("Access-Control-Allow-Methods").contains("POST"), r.header("Access-Control-Allow-Methods"));
        String headers = r.header("Access-Control-Allow-Headers").toLowerCase(Locale.ROOT);
        assertTrue(headers.contains("authorization") && headers.contains("content-type"), headers);
    }

    @Test
    void aPreflightFromAnotherOriginIsRefusedWithoutTheHeaders() {
        Api.Response r = preflight(OTHER);
        assertEquals(403, r.status(), r.toString());
        assertNull(r.header("Access-Control-Allow-Origin"));
        assertNull(r.header("Access-Control-Allow-Methods"));
    }

    @Test
    void anActualRequestFromAnAllowedOriginGetsTheHeadersWithItsAnswerOrItsError() {
        Api.Response info = fromOrigin(api(null), "/api/v1/server", ALLOWED);
        assertEquals(200, info.status(), info.toString());
        assertEquals(ALLOWED, info.header("Access-Control-Allow-Origin"));
        assertTrue(
                info.header("Access-Control-Expose-Headers").contains("Link"),
                info.headers().toString());
        // a page must be able to read a refusal, too
        Api.Response refused = fromOrigin(api(null), "/api/v1/nodes", ALLOWED);
        assertEquals(401, refused.status(), refused.toString());
        assertEquals(ALLOWED, refused.header("Access-Control-Allow-Origin"));
        Api.Response passed = fromOrigin(admin(), "/api/v1/nodes", ALLOWED);
        assertEquals(200, passed.status(), passed.toString());
        assertEquals(ALLOWED, passed.header("Access-Control-Allow-Origin"));
    }

    @Test
    void anActualRequestFromAnotherOriginIsRefusedWithoutTheHeaders() {
        Api.Response r = fromOrigin(admin(), "/api/v1/server", OTHER);
        assertEquals(403, r.status(), r.toString());
        assertNull(r.header("Access-Control-Allow-Origin"));
    }

    private Api.Response preflight(String origin) {
        Api anonymous = api(null);
        return anonymous.send(anonymous
                .request("/api/v1/processes")
                .header("Origin", origin)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization,content-type")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
    }

    private static Api.Response fromOrigin(Api api, String path, String origin) {
        return api.send(api.request(path).header("Origin", origin).GET());
    }
}
