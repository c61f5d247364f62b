package dev.cairn.api.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.CookieManager;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * An OIDC issuer that does not answer (nothing listens where it should be): a JWT cannot be checked,
 * which is an outage, 503 with {@code Retry-After}, not the client's fault; Cairn's own tokens work on;
 * and a sign-in to the web view through it cannot start, which the sign-in page says.
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
        registry.add("cairn.security.oidc.client-id", () -> "cairn-web");
        registry.add("cairn.security.oidc.name", () -> "Lab login");
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

    /** Signing in through the issuer cannot start: the sign-in page says why, not a bare 500. */
    @Test
    void aSignInThroughTheIssuerThatCannotStartSaysWhyOnTheSignInPage() throws Exception {
        HttpClient browser = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        String base = "http://localhost:" + port;
        HttpResponse<String> start = browser.send(
                HttpRequest.newBuilder(URI.create(base + "/ui/oauth2/authorization/issuer"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(302, start.statusCode(), start.body());
        assertEquals(
                base + "/ui/sign-in",
                start.headers()
                        .firstValue("Location")
                        .map(l -> l.startsWith("/") ? base + l : l)
                        .orElse(""));

        HttpResponse<String> page = browser.send(
                HttpRequest.newBuilder(URI.create(base + "/ui/sign-in")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("Sign-in through Lab login is not available now"), page.body());
        assertTrue(page.body().contains("did not give its OpenID configuration"), page.body());
    }
}
