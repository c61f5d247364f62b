package dev.cairn.api.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * An OIDC issuer that does not answer (nothing listens where it should be): a JWT cannot be checked,
 * which is an outage, 503 with {@code Retry-After}, not the client's fault; Cairn's own tokens work on.
 */
class OidcIssuerAwayIT extends ApiTest {

    /** A JWT as issuers make them (header, payload, signature); its checks never start. */
    private static final String JWT = "eyJhbGciOiJSUzI1NiIsImtpZCI6Imlzc3Vlci1rZXkifQ"
            + ".eyJzdWIiOiJhbGljZSIsImVtYWlsIjoiYWxpY2VAbGFiLmV4YW1wbGUub3JnIn0.c2lnbmF0dXJl";

    @DynamicPropertySource
    static void oidc(DynamicPropertyRegistry registry) throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        registry.add("cairn.security.oidc.issuer-uri", () -> "http://127.0.0.1:" + closed + "/issuer");
    }

    @Test
    void aJwtThatCannotBeCheckedIsA503AndCairnTokensWorkOn() {
        for (int attempt = 0; attempt < 2; attempt++) { // the decoder is made again at the next JWT
            Api.Response r = api(JWT).get("/api/v1/nodes");
            assertEquals(503, r.status(), r.toString());
            assertEquals("urn:cairn:problem:unavailable", r.json().get("type").asString(), r.toString());
            assertEquals("5", r.header("Retry-After"), r.toString());
            assertTrue(
                    r.json().get("detail").asString().startsWith("checking a JWT: the OIDC issuer http://127.0.0.1:"),
                    r.toString());
        }
        assertEquals(200, admin().get("/api/v1/nodes").status());
    }
}
