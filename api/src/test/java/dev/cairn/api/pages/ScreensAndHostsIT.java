package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * Every page on a laptop's screen (1366×768) and a large one (2560×1440): its heading in view and nothing wider
 * than the window (no sideways scrolling); and every request a page made, its scripts, styles, images, fonts
 * and fetches, went to the server itself, none to another host.
 */
class ScreensAndHostsIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    private String base() {
        return "http://localhost:" + port;
    }

    /** The pages, by name, around a process that ran (its page, its output's node page, its graph). */
    private Map<String, String> pages() throws InterruptedException {
        Api.Response r =
                admin().post("/api/v1/processes", "{\"entry_point\": \"test.sleep\", \"inputs\": {\"seconds\": 0}}");
        assertEquals(201, r.status(), r.toString());
        String uuid = r.json().get("uuid").asString();
        long deadline = System.currentTimeMillis() + 60_000;
        Api.Response shown;
        while (!(shown = admin().get("/api/v1/processes/" + uuid))
                .json()
                .get("process")
                .get("state")
                .asString()
                .equals("finished")) {
            assertTrue(System.currentTimeMillis() < deadline, "the process did not end: " + shown);
            Thread.sleep(100);
        }
        String output = shown.json().get("outputs").get("slept").get("uuid").asString();
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("dashboard", "/ui");
        pages.put("processes", "/ui/processes");
        pages.put("process", "/ui/processes/" + uuid);
        pages.put("node", "/ui/nodes/" + output);
        pages.put("graph", "/ui/nodes/" + uuid + "/graph");
        pages.put("query", "/ui/query");
        return pages;
    }

    @Test
    void everyPageFitsALaptopAndALargeScreenAndAsksNoOtherHost() throws InterruptedException {
        BROWSER.signedIn(base(), adminToken());
        Map<String, String> pages = pages();
        try {
            for (int[] screen : List.of(new int[] {1366, 768}, new int[] {2560, 1440})) {
                BROWSER.size(screen[0], screen[1]);
                for (Map.Entry<String, String> page : pages.entrySet()) {
                    String where = page.getKey() + " at " + screen[0] + "x" + screen[1];
                    BROWSER.open(base() + page.getValue());
                    if (page.getKey().equals("graph")) {
                        BROWSER.await(
                                30, d -> "true".equals(BROWSER.find("body").getDomAttribute("data-graph-ready")));
                    }
                    assertTrue(BROWSER.find("h1").isDisplayed(), where + ": its heading shown");
                    Number overflow = (Number) BROWSER.driver()
                            .executeScript("return document.documentElement.scrollWidth - window.innerWidth");
                    assertTrue(overflow.intValue() <= 0, where + ": " + overflow + " px wider than the window");
                    assertEquals(List.of(), otherHosts(), where + ": requests to another host");
                    assertTrue(
                            BROWSER.driver()
                                            .findElements(By.cssSelector("script[src]"))
                                            .size()
                                    > 0,
                            where + ": its scripts are among the requests checked");
                    if (screen[0] == 1366) {
                        BROWSER.screenshot("laptop-" + page.getKey());
                    }
                }
            }
        } finally {
            BROWSER.size(1440, 900);
        }
    }

    /**
     * The addresses of what the page requested (the page, every resource and fetch the browser timed) or
     * names to load (a script, style, image or frame) that are not on the page's own origin.
     */
    @SuppressWarnings("unchecked")
    private static List<String> otherHosts() {
        return (List<String>) BROWSER.driver()
                .executeScript("const own = location.origin;"
                        + " const asked = performance.getEntries().filter((e) => e.name.includes('://'))"
                        + ".map((e) => e.name);"
                        + " const named = [...document.querySelectorAll('script[src], link[href]:not([rel=alternate]),"
                        + " img[src], iframe[src], source[src], video[src], audio[src], object[data]')]"
                        + ".map((e) => e.src || e.href || e.data);"
                        + " return [...asked, ...named].filter((u) => new URL(u, location.href).origin !== own);");
    }
}
