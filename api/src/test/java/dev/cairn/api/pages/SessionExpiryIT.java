package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.test.context.TestPropertySource;

import dev.cairn.api.testing.ApiTest;

/**
 * A session ends once it is idle for {@code cairn.security.session-timeout}, here {@value #TIMEOUT_S} s:
 * left with no page open; and with a live page left open, whose event stream is not the person's activity
 * and ends with the session (the page then says it is not live), nor do the fetches a page makes for its
 * stream's events. Requests of the person's keep it.
 */
@TestPropertySource(properties = "cairn.security.session-timeout=" + SessionExpiryIT.TIMEOUT_S + "s")
class SessionExpiryIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    static final int TIMEOUT_S = 3;

    private String base() {
        return "http://localhost:" + port;
    }

    @Test
    void aSessionLeftIdlePastItsTimeoutAsksForSignInAgain() throws InterruptedException {
        BROWSER.signedIn(base(), adminToken());
        BROWSER.open(base() + "/ui/processes");
        assertEquals("Processes · Cairn", BROWSER.driver().getTitle(), "signed in before the wait");
        BROWSER.open("about:blank");
        // nothing to wait on here: any request of the session's would be the activity that keeps it
        Thread.sleep(TIMEOUT_S * 1_000 + 1_000);
        BROWSER.open(base() + "/ui/processes");
        BROWSER.await(10, ExpectedConditions.urlContains("/ui/sign-in"));
    }

    @Test
    void aLivePageLeftOpenDoesNotKeepItsSession() {
        BROWSER.signedIn(base(), adminToken());
        long opened = System.nanoTime();
        BROWSER.await(10, ExpectedConditions.attributeContains(By.id("live-status"), "class", "on"));
        // the stream ends with the session; the browser's reconnection is refused and not tried again
        BROWSER.await(30, ExpectedConditions.attributeContains(By.id("live-status"), "class", "closed"));
        long ended = (System.nanoTime() - opened) / 1_000_000;
        assertTrue(ended >= TIMEOUT_S * 1_000, "the stream ended after " + ended + " ms, before the timeout");
        BROWSER.open(base() + "/ui/processes");
        BROWSER.await(10, ExpectedConditions.urlContains("/ui/sign-in"));
    }

    @Test
    void thePagesFetchesForItsEventsDoNotKeepItsSession() throws InterruptedException {
        BROWSER.signedIn(base(), adminToken());
        BROWSER.open(base() + "/ui/processes");
        long start = System.nanoTime();
        // what a process's page does on each event of its tree (process.js): fetch itself again, marked as
        // the stream's; twice a second, for twice the timeout
        while (System.nanoTime() - start < 2_000_000_000L * TIMEOUT_S) {
            Thread.sleep(500);
            BROWSER.driver()
                    .executeAsyncScript("const done = arguments[0]; fetch(location.pathname, {redirect: 'manual',"
                            + " headers: {Accept: 'text/html', 'X-Requested-With': 'XMLHttpRequest',"
                            + " 'X-Cairn-Live': 'refresh'}}).then(() => done(), () => done());");
        }
        BROWSER.open(base() + "/ui/processes");
        BROWSER.await(10, ExpectedConditions.urlContains("/ui/sign-in"));
    }

    @Test
    void requestsOfThePersonKeepTheSession() throws InterruptedException {
        BROWSER.signedIn(base(), adminToken());
        long start = System.nanoTime();
        // a page every second, for twice the timeout
        while (System.nanoTime() - start < 2_000_000_000L * TIMEOUT_S) {
            Thread.sleep(1_000);
            BROWSER.open(base() + "/ui/query");
            assertEquals("Query · Cairn", BROWSER.driver().getTitle(), "still signed in");
        }
    }
}
