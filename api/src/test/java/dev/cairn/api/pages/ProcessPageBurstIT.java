package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.beans.factory.annotation.Autowired;

import dev.cairn.api.processes.ProcessService;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.SlowProcesses;

/**
 * What a big, busy call tree costs the page that follows it: a work chain whose {@value #CHILDREN} children
 * end one after another as the worker slots take them, each end an event of its tree. Run once with no page
 * open (the reference) and once with its page open: the page's fetches (how many, how long, how big), the CPU
 * the server's request threads spent, how long the burst took, and when its end reached the page. Figures go
 * to {@code target/web-figures.txt}.
 */
class ProcessPageBurstIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    static final int CHILDREN = 400;

    /** Whatever the burst, the page's fetches stay far below one per event of the tree (three per child). */
    static final int MOST_FETCHES = CHILDREN / 4;

    @Autowired
    private ProcessService processes;

    private static final List<String> GATES = Collections.synchronizedList(new ArrayList<>());

    @AfterAll
    static void openEveryGate() {
        GATES.forEach(SlowProcesses::open);
    }

    private String base() {
        return "http://localhost:" + port;
    }

    /** One run of the burst: its time, the request threads' CPU in it, and the chain's uuid. */
    private record Burst(String uuid, long millis, long requestCpuMillis) {}

    @Test
    void aBigTreeEndingChildAfterChildCostsThePageFewFetches() {
        BROWSER.signedIn(base(), adminToken());
        BROWSER.open("about:blank");
        Burst reference = burst(null);

        BROWSER.open(base() + "/ui/processes");
        Burst watched = burst(uuid -> {
            BROWSER.open(base() + "/ui/processes/" + uuid);
            BROWSER.await(10, ExpectedConditions.presenceOfElementLocated(By.cssSelector("#live-status.on")));
            BROWSER.driver()
                    .executeScript("window.seen = null; new MutationObserver(() => { if (window.seen == null"
                            + " && document.getElementById('exit-status')) window.seen = Date.now(); })"
                            + ".observe(document.body, {childList: true, subtree: true});");
        });
        BROWSER.await(30, d -> !d.findElements(By.id("exit-status")).isEmpty());
        long endSeen = ((Number) BROWSER.driver().executeScript("return window.seen")).longValue();
        assertEquals(
                CHILDREN,
                BROWSER.driver()
                        .findElements(By.cssSelector("#call-tree li li"))
                        .size(),
                "every child in the tree");
        assertEquals(
                CHILDREN,
                BROWSER.driver()
                        .findElements(By.cssSelector("#call-tree li li [data-state=finished]"))
                        .size(),
                "every child shown finished");
        BROWSER.screenshot("process-burst");

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> fetches = (List<Map<String, Object>>) BROWSER.driver()
                .executeScript("return performance.getEntriesByType('resource')"
                        + ".filter((e) => e.initiatorType === 'fetch' && new URL(e.name).pathname === location.pathname)"
                        + ".map((e) => ({ms: e.duration, bytes: e.encodedBodySize}))");
        List<Double> times = fetches.stream()
                .map(f -> ((Number) f.get("ms")).doubleValue())
                .sorted()
                .toList();
        long bytes = fetches.stream()
                .mapToLong(f -> ((Number) f.get("bytes")).longValue())
                .sum();
        long lastEnd = finishedAt(watched.uuid());
        Browser.figure(String.format(
                "process page burst: a work chain's %d children ending one after another; no page open: %d ms,"
                        + " request threads' CPU %d ms; its page open: %d ms, request threads' CPU %d ms, %d fetches"
                        + " of the page (median %.0f ms, longest %.0f ms, %d KiB in all); the chain's end reached"
                        + " the page %d ms after it was written%n",
                CHILDREN,
                reference.millis(),
                reference.requestCpuMillis(),
                watched.millis(),
                watched.requestCpuMillis(),
                times.size(),
                times.isEmpty() ? 0.0 : times.get(times.size() / 2),
                times.isEmpty() ? 0.0 : times.getLast(),
                bytes / 1024,
                endSeen - lastEnd));
        Browser.figure(renderCost(watched.uuid()));
        assertTrue(times.size() <= MOST_FETCHES, times.size() + " fetches of the page for " + CHILDREN + " children");
        // the chain's end is fetched at once, after the fetch in flight: two fetches at most, and a second of slack
        long longest = times.isEmpty() ? 0 : Math.round(times.getLast());
        assertTrue(
                endSeen - lastEnd < 2 * longest + 1_000,
                "the end came " + (endSeen - lastEnd) + " ms late; the longest fetch took " + longest + " ms");
    }

    /**
     * Where one render of the ended chain's page goes, the machine quiet of the burst: the services the page
     * calls (the detail, the call tree, the report) and the whole fetch, medians of 5.
     */
    private String renderCost(String uuid) {
        List<Long> show = new ArrayList<>();
        List<Long> tree = new ArrayList<>();
        List<Long> report = new ArrayList<>();
        List<Long> fetch = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            show.add(timed(() -> processes.show(uuid)));
            tree.add(timed(() -> processes.tree(uuid)));
            report.add(timed(() -> processes.report(uuid, "REPORT", null, 500)));
            fetch.add(((Number) BROWSER.driver()
                            .executeAsyncScript("const done = arguments[0]; const t = performance.now();"
                                    + " fetch(location.pathname, {headers: {'X-Requested-With': 'XMLHttpRequest'}})"
                                    + ".then((r) => r.text()).then(() => done(performance.now() - t));"))
                    .longValue());
        }
        return String.format(
                "process page burst: one render of the ended chain's page (%d children), medians of 5: the detail"
                        + " %d ms, the call tree %d ms, the report %d ms; the whole fetch %d ms%n",
                CHILDREN, median(show), median(tree), median(report), median(fetch));
    }

    private static long timed(Runnable call) {
        long start = System.nanoTime();
        call.run();
        return (System.nanoTime() - start) / 1_000_000;
    }

    private static long median(List<Long> values) {
        return values.stream().sorted().toList().get(values.size() / 2);
    }

    /** A fan-out of {@value #CHILDREN}, {@code opened} called with its uuid before its gate opens; waits for its end. */
    private Burst burst(Consumer<String> opened) {
        String gate = "burst-" + System.nanoTime();
        GATES.add(gate);
        Api.Response r = admin().post(
                        "/api/v1/processes",
                        "{\"entry_point\": \"test.fan_out\", \"inputs\": {\"gate\": \"" + gate + "\", \"count\": "
                                + CHILDREN + "}}");
        assertEquals(201, r.status(), r.toString());
        String uuid = r.json().get("uuid").asString();
        if (opened != null) {
            opened.accept(uuid);
        }
        long cpu = requestThreadsCpuNanos();
        long start = System.currentTimeMillis();
        SlowProcesses.open(gate);
        long deadline = start + 300_000;
        String state;
        while (!List.of("finished", "excepted", "killed").contains(state = state(uuid))) {
            assertTrue(System.currentTimeMillis() < deadline, "the fan-out did not end in 5 minutes");
            sleep(100);
        }
        assertEquals("finished", state, "the fan-out's end");
        long millis = finishedAt(uuid) - start;
        return new Burst(uuid, millis, (requestThreadsCpuNanos() - cpu) / 1_000_000);
    }

    private String state(String uuid) {
        return admin().get("/api/v1/processes/" + uuid)
                .json()
                .get("process")
                .get("state")
                .asString();
    }

    /** When the chain was last written (its end), as the test's clock reads it. */
    private long finishedAt(String uuid) {
        return OffsetDateTime.parse(admin().get("/api/v1/processes/" + uuid)
                        .json()
                        .get("process")
                        .get("mtime")
                        .asString())
                .toInstant()
                .toEpochMilli();
    }

    /** The CPU time of the server's request threads (Tomcat's {@code http-nio-*-exec-*}), the page fetches' share. */
    private static long requestThreadsCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("http-nio-")) {
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                sum += Math.max(0, cpu);
            }
        }
        return sum;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
