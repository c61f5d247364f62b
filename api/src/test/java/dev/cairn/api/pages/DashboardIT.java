package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * The dashboard in a real browser: its counts by state follow a process from waiting to finished without a
 * reload, and it shows the processes ended in the last hour, the workers taking tasks, the queue's depth and
 * this server's worker slots.
 */
class DashboardIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    private static long count(String state) {
        return Long.parseLong(
                BROWSER.find("[data-state-count=\"" + state + "\"]").getText());
    }

    @Test
    void theCountsByStateFollowAProcessLiveBesideThroughputWorkersAndQueue() {
        BROWSER.signedIn(base(), adminToken());
        BROWSER.await(10, ExpectedConditions.presenceOfElementLocated(By.cssSelector("#live-status.on")));
        BROWSER.driver().executeScript("window.notReloaded = true");
        long waiting = count("waiting");
        long finished = count("finished");

        // a workflow whose first step submits a child that sleeps 2 s: the workflow waits, then both finish
        Api.Response r =
                admin().post("/api/v1/processes", "{\"entry_point\": \"test.parent\", \"inputs\": {\"seconds\": 2}}");
        assertEquals(201, r.status(), r.toString());
        BROWSER.await(20, d -> count("waiting") == waiting + 1);
        BROWSER.await(20, d -> count("finished") == finished + 2 && count("waiting") == waiting);
        assertEquals(
                Boolean.TRUE,
                BROWSER.driver().executeScript("return window.notReloaded === true"),
                "counted live, the page never reloaded");

        BROWSER.open(base() + "/ui");
        long ended = Long.parseLong(
                BROWSER.find("section[aria-labelledby=throughput-title] strong").getText());
        assertTrue(ended >= 1, "processes ended in the last hour: " + ended);
        assertTrue(
                BROWSER.driver()
                                .findElements(By.cssSelector("svg.throughput rect"))
                                .size()
                        >= 60,
                "a bar a minute");
        assertTrue(Long.parseLong(BROWSER.find("#workers").getText()) >= 1, "this server's worker takes tasks");
        assertTrue(
                Long.parseLong(BROWSER.find("#queue-depth").getText()) >= 0,
                BROWSER.find("#queue-depth").getText());
        assertEquals("4", BROWSER.find("#local-slots").getText(), "the test server's worker slots");
        BROWSER.screenshot("dashboard-busy");
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
