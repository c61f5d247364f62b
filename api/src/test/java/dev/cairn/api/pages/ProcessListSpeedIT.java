package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.SeededProcesses;

/**
 * The process list over {@value #DEFAULT_PROCESSES} processes (or {@code -Dcairn.web.processes=N}),
 * timed in the browser by Navigation Timing: the first render of a page of the list, and the next page
 * through its link, for several filters, against the render of a list that matches nothing (the same
 * page with no rows). The aims (issue 28): first render under 1 s, next page under 300 ms, held by the
 * medians over every workload, stretched when the reference shows the machine loaded past
 * {@link #REFERENCE_MS}; each workload's median is held under twice the aims.
 */
class ProcessListSpeedIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    static final int DEFAULT_PROCESSES = 100_000;
    static final int PROCESSES = Integer.getInteger("cairn.web.processes", DEFAULT_PROCESSES);
    static final int RUNS = 5;

    /**
     * The reference page (the list matching nothing) on this 2-core machine shared with other builds
     * (load average 11-12): a slower reference says the machine is loaded further, and the aims are
     * stretched by as much, so that a test run beside a whole CI build fails a slow page, not a busy
     * machine. The figures reported are the measured ones.
     */
    static final long REFERENCE_MS = 160;

    /** The aims of issue 28, held by the medians over every workload (stretched by the load, see above). */
    static final long FIRST_AIM_MS = 1_000;

    static final long NEXT_AIM_MS = 300;

    /** The rows of a page of the list. */
    static final int PAGE = 50;

    /**
     * Seeds the processes in one statement: 90 % finished (one in 20 of them failed), 5 % excepted, 5 % waiting;
     * a third work chains, one in a thousand calculation jobs, the rest calculation functions.
     */
    private long seed() throws SQLException {
        long start = System.nanoTime();
        SeededProcesses.of(engine, PROCESSES)
                .nodeType("CASE WHEN i % 1000 = 5 THEN 'process.calculation.calcjob.CalcJobNode.'"
                        + " WHEN i % 3 = 0 THEN 'process.workflow.workchain.WorkChainNode.'"
                        + " ELSE 'process.calculation.calcfunction.CalcFunctionNode.' END")
                .processType("'seeded.' || CASE WHEN i % 3 = 0 THEN 'flow' ELSE 'calc' END")
                .ctime("now() - i * interval '5 seconds'")
                .attributes("CASE WHEN i % 20 = 0 THEN '{\"process_state\": \"waiting\"}'::jsonb"
                        + " WHEN i % 20 = 1 THEN '{\"process_state\": \"excepted\"}'::jsonb"
                        + " WHEN i % 20 = 2 THEN '{\"process_state\": \"finished\", \"exit_status\": 1}'::jsonb"
                        + " ELSE '{\"process_state\": \"finished\", \"exit_status\": 0}'::jsonb END")
                .insert();
        return (System.nanoTime() - start) / 1_000_000;
    }

    /** The page's own timing of its last navigation: from the request to the end of its load event. */
    @SuppressWarnings("unchecked")
    private static Map<String, Number> timing() {
        return (Map<String, Number>) BROWSER.driver()
                .executeScript("const t = performance.getEntriesByType('navigation')[0];"
                        + " return {total: t.loadEventEnd - t.startTime, server: t.responseStart - t.requestStart,"
                        + " received: t.responseEnd - t.startTime};");
    }

    /** The milliseconds from the request to the whole page received, of the last {@link #first}. */
    private long received;

    /** Opens the list at {@code query}: the milliseconds to its first render. */
    private long first(String query) {
        BROWSER.open("http://localhost:" + port + "/ui/processes" + query);
        BROWSER.await(10, ExpectedConditions.presenceOfElementLocated(By.id("process-table")));
        Map<String, Number> timing = timing();
        received = timing.get("received").longValue();
        return timing.get("total").longValue();
    }

    /**
     * Follows the page's link to the next page, which replaces the list in place: the milliseconds from
     * the click to the new rows settled in the page (the page's own clock).
     */
    private long next() {
        BROWSER.driver()
                .executeScript("window.turned = null; const link = document.getElementById('next-page');"
                        + " link.addEventListener('click', () => { window.clicked = performance.now(); });"
                        + " document.body.addEventListener('htmx:afterSettle',"
                        + " () => { window.turned = performance.now() - window.clicked; }, {once: true});");
        WebElement link = BROWSER.find("#next-page");
        link.click();
        BROWSER.await(10, ExpectedConditions.stalenessOf(link));
        BROWSER.await(10, d -> BROWSER.driver().executeScript("return window.turned") != null);
        assertEquals(PAGE, rows(), "a full page after the first");
        assertTrue(BROWSER.driver().getCurrentUrl().contains("after="), "the address follows the page");
        return ((Number) BROWSER.driver().executeScript("return window.turned")).longValue();
    }

    private static int rows() {
        return BROWSER.driver()
                .findElements(By.cssSelector("#process-table tbody tr[data-process]"))
                .size();
    }

    private static long median(List<Long> runs) {
        List<Long> sorted = new ArrayList<>(runs);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    @Test
    void aPageOfTheListRendersFastOverAHundredThousandProcesses() throws SQLException {
        long seeded = seed();
        BROWSER.signedIn("http://localhost:" + port, adminToken());
        // a server that has run a while: its templates parsed and its code compiled
        for (int i = 0; i < 10; i++) {
            first("");
        }
        List<Long> empty = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            empty.add(first("?type=nothing.matches"));
        }
        StringBuilder figures = new StringBuilder(String.format(
                "process list over %,d processes (seeded in %d ms): median of %d runs; first render (Navigation"
                        + " Timing, request to load event end) / next page (click to the new rows settled, in"
                        + " place); a list matching nothing: %d ms%n",
                PROCESSES, seeded, RUNS, median(empty)));
        double load = Math.max(1.0, (double) median(empty) / REFERENCE_MS);
        List<Long> allFirsts = new ArrayList<>();
        List<Long> allNexts = new ArrayList<>();
        List<String> slow = new ArrayList<>();
        for (String query : List.of(
                "",
                "?state=finished",
                "?type=seeded.flow",
                "?type=seeded.*&exit_status=1",
                "?state=waiting",
                "?state=excepted&since=2020-01-01T00:00",
                "?kind=workchain",
                "?kind=calcjob",
                "?kind=calcfunction&kind=calcjob&state=waiting")) {
            List<Long> firsts = new ArrayList<>();
            List<Long> nexts = new ArrayList<>();
            List<Long> html = new ArrayList<>();
            for (int i = 0; i < RUNS; i++) {
                firsts.add(first(query));
                html.add(received);
                assertEquals(PAGE, rows(), query);
                nexts.add(next());
            }
            long first = median(firsts);
            long next = median(nexts);
            figures.append(String.format(
                    "  %-40s %5d ms (%.1f× the empty list; its HTML in %d ms)  %5d ms  runs %s / %s%n",
                    query.isEmpty() ? "(all, newest first)" : query,
                    first,
                    (double) first / Math.max(1, median(empty)),
                    median(html),
                    next,
                    firsts,
                    nexts));
            allFirsts.addAll(firsts);
            allNexts.addAll(nexts);
            // a single workload's median may stray on a loaded machine; twice the aim it may not
            if (first >= 2 * FIRST_AIM_MS * load || next >= 2 * NEXT_AIM_MS * load) {
                slow.add(query + ": " + first + " ms, next " + next + " ms");
            }
        }
        BROWSER.screenshot("processes-100k");
        figures.append(String.format(
                "  all workloads: first render %d ms, next page %d ms (medians of %d runs); the aims stretched"
                        + " × %.2f for the load%n",
                median(allFirsts), median(allNexts), allFirsts.size(), load));
        Browser.figure(figures);
        System.out.print(figures);
        assertTrue(
                median(allFirsts) < FIRST_AIM_MS * load,
                String.format("first render over the aim of 1 s (× %.2f for the machine's load):%n%s", load, figures));
        assertTrue(
                median(allNexts) < NEXT_AIM_MS * load,
                String.format("next page over the aim of 300 ms (× %.2f for the machine's load):%n%s", load, figures));
        assertTrue(slow.isEmpty(), "over twice the aims: " + slow + "\n" + figures);
    }
}
