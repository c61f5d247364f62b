package dev.cairn.api.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.util.Base64;
import java.util.List;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.cairn.api.pages.Browser;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.users.UserStore;

/**
 * JWTs of an institution's OpenID Connect issuer, a real one ({@link OidcIssuer}) started beside the
 * server: a token's email claim names the Cairn user the request acts as (made on first sight), its
 * roles claim gives Cairn's roles among the issuer's own, and a JWT the issuer did not sign as it
 * stands, or one that ran out, is refused. Requests go to paths the rules cover; an answer of the
 * resource, neither 401 nor 403, means the request passed the rules. In the browser, people sign in to
 * the web view through the issuer's login form and get the same roles; one Cairn refuses comes back
 * to the sign-in page with the reason.
 */
class OidcJwtIT extends ApiTest {

    @RegisterExtension
    static final OidcIssuer ISSUER = new OidcIssuer();

    @DynamicPropertySource
    static void oidc(DynamicPropertyRegistry registry) {
        registry.add("cairn.security.oidc.issuer-uri", ISSUER::uri);
        registry.add("cairn.security.oidc.client-id", () -> OidcIssuer.WEB_CLIENT);
        registry.add("cairn.security.oidc.client-secret", () -> OidcIssuer.WEB_CLIENT_SECRET);
        registry.add("cairn.security.oidc.name", () -> "the Lab Directory");
    }

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    /**
     * A person signs in to the web view at the issuer's login form: the authorization code flow, with
     * PKCE, which the issuer requires of this client. The issuer's session of a sign-in before is ended
     * first, and Cairn's. The server is reached at 127.0.0.1, the issuer at localhost: each keeps its own
     * session cookie.
     */
    private String signInThroughTheIssuer(String person) {
        BROWSER.open(ISSUER.uri() + "/login");
        BROWSER.driver().manage().deleteAllCookies();
        String base = "http://127.0.0.1:" + port;
        BROWSER.open(base + "/ui/sign-in");
        BROWSER.driver().manage().deleteAllCookies();
        BROWSER.open(base + "/ui/sign-in");
        BROWSER.find("#sign-in-oidc").click();
        BROWSER.await(15, ExpectedConditions.presenceOfElementLocated(By.id("username")));
        BROWSER.find("#username").sendKeys(person);
        BROWSER.find("#password").sendKeys(OidcIssuer.password(person));
        BROWSER.find("button[type=submit]").click();
        return base;
    }

    private static boolean offered(String css) {
        return !BROWSER.driver().findElements(By.cssSelector(css)).isEmpty();
    }

    @Test
    void aPersonSignsInToTheWebViewThroughTheIssuerWithTheRolesOfItsJwtsAndSignsOut() {
        String base = signInThroughTheIssuer("submitter");
        BROWSER.await(15, ExpectedConditions.titleIs("Dashboard · Cairn"));
        assertEquals(base + "/ui", BROWSER.driver().getCurrentUrl());
        BROWSER.open(base + "/ui/processes");
        assertTrue(offered("#bulk-kill"), "a submitter is offered the controls");
        BROWSER.find("#sign-out").click();
        BROWSER.await(10, ExpectedConditions.titleIs("Sign in · Cairn"));
        BROWSER.open(base + "/ui/processes");
        BROWSER.await(10, ExpectedConditions.titleIs("Sign in · Cairn"));
        assertTrue(offered("#sign-in-oidc"), "the sign-in page offers the issuer by name");
        assertEquals(
                "Sign in with the Lab Directory", BROWSER.find("#sign-in-oidc").getText());
    }

    @Test
    void aSessionThroughTheIssuerOutlivesItsAccessTokenUntilTheIssuerRevokesTheSignIn() {
        int refreshed = ISSUER.refreshes();
        String base = signInThroughTheIssuer("submitter");
        BROWSER.await(15, ExpectedConditions.titleIs("Dashboard · Cairn"));
        long signedIn = System.nanoTime();
        // the first access token has run out: what the session holds now, the refresh token renewed
        BROWSER.await(
                (int) OidcIssuer.WEB_ACCESS_TOKEN_LIFETIME.toSeconds() + 10,
                d -> System.nanoTime() - signedIn > OidcIssuer.WEB_ACCESS_TOKEN_LIFETIME.toNanos());
        BROWSER.open(base + "/ui/processes");
        assertEquals("Processes · Cairn", BROWSER.driver().getTitle());
        assertTrue(offered("#bulk-kill"), "still the submitter");
        assertTrue(ISSUER.refreshes() > refreshed, "the access token was renewed");
        ISSUER.revokeSignIns("submitter");
        BROWSER.open(base + "/ui/processes");
        BROWSER.await(10, ExpectedConditions.titleIs("Sign in · Cairn"));
        assertEquals(
                "Your session ended: the Lab Directory did not renew your sign-in (invalid_grant).",
                BROWSER.find("#sign-in-error").getText());
    }

    @Test
    void aReaderThroughTheIssuerIsOfferedNoControls() {
        String base = signInThroughTheIssuer("reader");
        BROWSER.await(15, ExpectedConditions.titleIs("Dashboard · Cairn"));
        BROWSER.open(base + "/ui/processes");
        BROWSER.find("#bulk");
        assertFalse(offered("#bulk-kill, #bulk-pause, #bulk-play"), "a reader is offered no control");
    }

    @Test
    void aSignInThatCairnRefusesComesBackWithAMessageSayingWhy() {
        signInThroughTheIssuer("outsider");
        BROWSER.await(15, ExpectedConditions.presenceOfElementLocated(By.id("sign-in-error")));
        assertEquals(
                "the Lab Directory signed you in, but Cairn refused it: the JWT's claim 'roles' names none of the"
                        + " roles read, submit, admin.",
                BROWSER.find("#sign-in-error").getText());
        assertTrue(new UserStore(engine.database())
                .findByEmail("carol@lab.example.org")
                .isEmpty());
    }

    @Test
    void aJwtActsAsTheUserItsEmailNamesWithTheCairnRolesAmongItsRoles() {
        Api alice = api(ISSUER.token("submitter"));
        assertPassed(alice.get("/api/v1/nodes"));
        assertPassed(alice.post("/api/v1/processes", "{}"));
        Api.Response admin = alice.post("/api/v1/computers", "{}");
        assertEquals(403, admin.status(), admin.toString());
        assertTrue(
                admin.json().get("detail").asString().startsWith("the roles of this token, [submit], do not allow"),
                admin.toString());
        var user = new UserStore(engine.database()).findByEmail("alice@lab.example.org");
        assertTrue(user.isPresent(), "the JWT's user was made on first sight");
        assertNotEquals(engine.graph().userId(), user.get().id(), "a JWT's user is its own, not the default one");
    }

    @Test
    void rolesGivenAsOneSpaceSeparatedStringCountToo() {
        Api bob = api(ISSUER.token("reader"));
        assertPassed(bob.get("/api/v1/nodes"));
        Api.Response submit = bob.post("/api/v1/processes", "{}");
        assertEquals(403, submit.status(), submit.toString());
        assertTrue(submit.json().get("detail").asString().contains("[read]"), submit.toString());
    }

    @Test
    void aJwtWithNoRoleOfCairnIsRefusedAndMakesNoUser() {
        Api.Response r = api(ISSUER.token("outsider")).get("/api/v1/nodes");
        assertUnauthenticated(r, "the JWT's claim 'roles' names none of the roles read, submit, admin");
        assertTrue(new UserStore(engine.database())
                .findByEmail("carol@lab.example.org")
                .isEmpty());
        // an ID token the issuer dated an hour past: Spring Security's client refuses the sign-in itself
        signInThroughTheIssuer("late");
        BROWSER.await(15, ExpectedConditions.presenceOfElementLocated(By.id("sign-in-error")));
        String late = BROWSER.find("#sign-in-error").getText();
        assertTrue(late.startsWith("Sign-in through the Lab Directory failed: ") && late.contains("expired"), late);
    }

    @Test
    void aJwtThatNamesNoUserIsRefused() {
        assertUnauthenticated(
                api(ISSUER.token("nameless")).get("/api/v1/nodes"), "the JWT has no claim 'email' naming its user");
    }

    @Test
    void anExpiredJwtIsRefused() {
        Api.Response r = api(ISSUER.token("late")).get("/api/v1/nodes");
        assertUnauthenticated(r, "the JWT was refused: ");
        assertTrue(r.json().get("detail").asString().contains("expired"), r.toString());
    }

    @Test
    void aJwtWhosePayloadWasChangedIsRefused() {
        String[] parts = ISSUER.token("reader").split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        String forged = payload.replace("\"lab-member read\"", "[\"admin\"]");
        assertNotEquals(payload, forged);
        String token = parts[0] + "."
                + Base64.getUrlEncoder().withoutPadding().encodeToString(forged.getBytes(StandardCharsets.UTF_8)) + "."
                + parts[2];
        Api.Response r = api(token).post("/api/v1/computers", "{}");
        assertUnauthenticated(r, "the JWT was refused: ");
        assertTrue(r.json().get("detail").asString().contains("Invalid signature"), r.toString());
    }

    @Test
    void aJwtSignedWithAnotherKeyIsRefused() throws Exception {
        JWTClaimsSet claims = SignedJWT.parse(ISSUER.token("submitter")).getJWTClaimsSet();
        JWTClaimsSet admin = new JWTClaimsSet.Builder(claims)
                .claim("roles", List.of("admin"))
                .build();
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        // the issuer's key id: the server takes the issuer's key, and the signature does not match it
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("issuer-key").build(), admin);
        jwt.sign(new RSASSASigner((RSAPrivateKey) generator.generateKeyPair().getPrivate()));
        Api.Response r = api(jwt.serialize()).post("/api/v1/computers", "{}");
        assertUnauthenticated(r, "the JWT was refused: ");
        assertTrue(r.json().get("detail").asString().contains("Invalid signature"), r.toString());
    }

    @Test
    void cairnTokensWorkBesideJwts() {
        assertPassed(admin().post("/api/v1/computers", "{}"));
    }

    /**
     * The rules let the request through: what answers is the resource, with what it makes of the
     * request (a page, a problem with its body or a missing name), never the security filters.
     */
    static void assertPassed(Api.Response r) {
        assertNotEquals(401, r.status(), r.toString());
        assertNotEquals(403, r.status(), r.toString());
        assertTrue(r.status() < 500, r.toString());
        if (r.status() >= 400) {
            assertTrue(r.header("Content-Type").startsWith("application/problem+json"), r.toString());
        }
    }

    private static void assertUnauthenticated(Api.Response r, String detail) {
        assertEquals(401, r.status(), r.toString());
        assertEquals("Bearer", r.header("WWW-Authenticate"));
        assertEquals("urn:cairn:problem:unauthenticated", r.json().get("type").asString());
        assertTrue(
                r.json().get("detail").asString().startsWith("the bearer token was refused: " + detail), r.toString());
    }
}
