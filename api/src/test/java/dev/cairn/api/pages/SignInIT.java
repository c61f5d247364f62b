package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.util.EnumSet;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * Signing in to the web view in a real browser (the server's root leads there): a token becomes a session, a bad one is refused with
 * a message saying why, a revoked one ends the session at the next page, signing out ends it, and a
 * form posted without the session's CSRF token is refused.
 */
class SignInIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    private String base() {
        return "http://localhost:" + port;
    }

    @Test
    void aPageAsksForSignInThenATokenOpensTheDashboard() {
        BROWSER.driver().manage().deleteAllCookies();
        BROWSER.open(base() + "/ui/processes");
        BROWSER.await(10, ExpectedConditions.urlContains("/ui/sign-in"));
        BROWSER.screenshot("sign-in");
        assertTrue(
                BROWSER.driver().findElements(By.id("sign-in-oidc")).isEmpty(),
                "no sign-in through an issuer where none is configured");
        BROWSER.find("#token").sendKeys(adminToken());
        BROWSER.find("#sign-in").click();
        BROWSER.await(10, ExpectedConditions.titleIs("Dashboard · Cairn"));
        assertTrue(
                BROWSER.find(".who").getText().contains("@"),
                BROWSER.find(".who").getText());
        BROWSER.screenshot("dashboard");
        BROWSER.find("#sign-out").click();
        BROWSER.await(
                10,
                ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".notice"), "You are signed out."));
        BROWSER.open(base() + "/"); // the server's root leads to the web view
        BROWSER.await(10, ExpectedConditions.urlContains("/ui/sign-in"));
    }

    @Test
    void aBadTokenIsRefusedWithAMessageSayingWhy() {
        BROWSER.signIn(base(), "cairn_not-a-token-of-this-server");
        String error = BROWSER.await(10, ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-error")))
                .getText();
        assertEquals("This token was refused: unknown token.", error);
        BROWSER.screenshot("sign-in-refused");
        BROWSER.signIn(base(), "eyJhbGciOi.not.a-jwt");
        String jwtError = BROWSER.await(10, ExpectedConditions.visibilityOfElementLocated(By.id("sign-in-error")))
                .getText();
        assertTrue(jwtError.contains("this server takes no JWTs"), jwtError);
    }

    @Test
    void aRevokedTokenEndsTheSessionAtTheNextPage() {
        var issued = tokens.create(engine.graph().userId(), "to revoke", EnumSet.of(Role.READ), null);
        BROWSER.signIn(base(), issued.secret());
        BROWSER.await(10, ExpectedConditions.titleIs("Dashboard · Cairn"));
        tokens.revoke(issued.token().uuid());
        // the server remembers a token it saw valid for a few seconds
        BROWSER.await(15, driver -> {
            driver.navigate().refresh();
            return driver.getCurrentUrl().contains("/ui/sign-in");
        });
        assertEquals(
                "Your session ended: the token was revoked.",
                BROWSER.find("#sign-in-error").getText());
    }

    @Test
    void aFormPostedWithoutTheSessionsCsrfTokenIsRefused() {
        Api anonymous = api(null);
        Api.Response r = anonymous.send(anonymous
                .request("/ui/sign-in")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("token=" + adminToken())));
        assertEquals(403, r.status(), r.toString());
    }

    /**
     * The scripts and styles a page links (WebJars and the web view's own) carry their content's hash in
     * their names, and are served to be kept for a year; the page itself is never kept.
     */
    @Test
    void scriptsAndStylesAreLinkedByTheirContentsHashAndKeptForAYear() {
        Api.Response page = api(null).get("/ui/sign-in");
        assertEquals(200, page.status(), page.toString());
        assertTrue(page.header("Cache-Control").contains("no-store"), page.header("Cache-Control"));
        List<String> assets = Pattern.compile("(?:src|href)=\"(/(?:webjars|ui/assets)/[^\"]+)\"")
                .matcher(page.body())
                .results()
                .map(m -> m.group(1))
                .toList();
        assertEquals(4, assets.size(), "Pico, htmx, cairn.css and cairn.js: " + assets);
        for (String asset : assets) {
            assertTrue(asset.matches(".*-[0-9a-f]{32}\\.(js|css)"), "named with its hash: " + asset);
            Api.Response served = api(null).get(asset);
            assertEquals(200, served.status(), asset);
            assertEquals("max-age=31536000, public", served.header("Cache-Control"), asset);
        }
        // a name whose hash is not the content's is not served as if it were
        String stale = assets.getFirst().replaceAll("-[0-9a-f]{32}\\.", "-00000000000000000000000000000000.");
        assertEquals(404, api(null).get(stale).status(), stale);
    }
}
