package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.test.context.TestPropertySource;

import dev.cairn.api.testing.ApiTest;

/**
 * A session left idle ends: with {@code server.servlet.session.timeout} at its least (Tomcat counts it in
 * whole minutes), a page opened after a minute and a half with no request asks for sign-in again.
 */
@TestPropertySource(properties = "server.servlet.session.timeout=1m")
class SessionExpiryIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    /**
     * The idle time: the minute, the heartbeat's 15 s (the live page's event stream, a request of the session,
     * ends when its next heartbeat finds the browser gone), and some more.
     */
    static final long IDLE_MS = 90_000;

    @Test
    void aSessionLeftIdlePastItsTimeoutAsksForSignInAgain() throws InterruptedException {
        String base = "http://localhost:" + port;
        BROWSER.signedIn(base, adminToken());
        BROWSER.open(base + "/ui/processes");
        assertEquals("Processes · Cairn", BROWSER.driver().getTitle(), "signed in before the wait");
        // away from the live pages; their event stream's request ends at its next heartbeat
        BROWSER.open("about:blank");
        Thread.sleep(IDLE_MS);
        BROWSER.open(base + "/ui/processes");
        BROWSER.await(10, ExpectedConditions.urlContains("/ui/sign-in"));
    }
}
