package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.Node;

/**
 * A node's attributes and extras on its page, folded key by key in a real browser: what a closed fold
 * shows (its size), what opening it shows (with the mouse and with the keyboard), a list of 1,000 items a
 * hundred at a time, values typed, unicode, markup shown as text, a long string cut and whole on demand,
 * the raw JSON a link away; bad paths refused naming what was wrong; and the page of a node with 2 MB of
 * attributes timed against a node with one.
 */
class NodeAttributesIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    /** Markup in a key (which may hold no '.') and in a value, each running a script if it were markup. */
    static final String MARKUP = "<b>bold</b><img src=x onerror=alert(1)>";

    static final String LONG = "x".repeat(4_993) + "the end";
    static final int RUNS = 5;

    private String base() {
        return "http://localhost:" + port;
    }

    private static Map<String, Object> nested() {
        Map<String, Object> structure = new LinkedHashMap<>();
        structure.put("cell", List.of(List.of(5.43, 0.0, 0.0), List.of(0.0, 5.43, 0.0), List.of(0.0, 0.0, 5.43)));
        structure.put("kinds", List.of(Map.of("name", "Si", "mass", 28.0855)));
        structure.put("pbc", List.of(true, true, true));
        List<Double> energies = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            energies.add(-0.5 - i / 1000.0);
        }
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("structure", structure);
        values.put("energies", energies);
        values.put("name", "Grüße, 水 🧪");
        values.put(MARKUP, "<script>alert(2)</script><img src=x onerror=alert(3)>");
        values.put("count", 7);
        values.put("seven", "7");
        values.put("converged", true);
        values.put("nothing", null);
        values.put("log", LONG);
        return values;
    }

    private List<WebElement> rows(String css) {
        return BROWSER.driver().findElements(By.cssSelector(css));
    }

    /** The row of {@code key} in the level of {@code tree} (an element id), one level down only. */
    private WebElement row(String tree, String key) {
        for (WebElement li : rows("#" + tree + " > li.j-row")) {
            if (li.findElement(By.cssSelector(".j-key")).getText().equals(key)) {
                return li;
            }
        }
        throw new AssertionError("no row '" + key + "' in #" + tree);
    }

    /** What the fold {@code row} shows once opened, one level down only: {@code path} an XPath from its list. */
    private static List<WebElement> inside(WebElement row, String path) {
        return row.findElements(By.xpath("./details/ul/" + path));
    }

    @Test
    void foldsShowTheirSizeAndOpenWithTheMouseAndTheKeyboard() {
        DictData dict = engine.graph().store(new DictData(nested()));
        assertEquals(
                200,
                admin().patch("/api/v1/nodes/" + dict.uuid(), "{\"extras\": {\"checked\": true}}")
                        .status());

        BROWSER.signedIn(base(), adminToken());
        BROWSER.open(base() + "/ui/nodes/" + dict.uuid());
        // the first level open: a row per key, nothing deeper in the page until it is opened
        assertEquals(9, rows("#attributes > li.j-row").size());
        assertEquals(9, rows("#attributes li.j-row").size(), "the folds' rows are not in the page yet");
        assertEquals(
                "{3 keys}",
                row("attributes", "structure")
                        .findElement(By.cssSelector("summary .j-size"))
                        .getText());
        assertEquals(
                "[1,000 items]",
                row("attributes", "energies")
                        .findElement(By.cssSelector("summary .j-size"))
                        .getText());
        assertTrue(rows("#attributes li.j-fold details[open]").isEmpty(), "folds closed");
        // values typed: a number, a string of digits, a boolean, null
        assertEquals(
                "7",
                row("attributes", "count")
                        .findElement(By.cssSelector(".j-number"))
                        .getText());
        assertEquals(
                "\"7\"",
                row("attributes", "seven")
                        .findElement(By.cssSelector(".j-string"))
                        .getText());
        assertEquals(
                "true",
                row("attributes", "converged")
                        .findElement(By.cssSelector(".j-boolean"))
                        .getText());
        assertEquals(
                "null",
                row("attributes", "nothing")
                        .findElement(By.cssSelector(".j-null"))
                        .getText());
        assertEquals(
                "\"Grüße, 水 🧪\"",
                row("attributes", "name")
                        .findElement(By.cssSelector(".j-string"))
                        .getText());
        // markup in a key and a value is text: no element made of it, no script run
        WebElement markup = row("attributes", MARKUP);
        assertEquals(
                "\"<script>alert(2)</script><img src=x onerror=alert(3)>\"",
                markup.findElement(By.cssSelector(".j-string")).getText());
        assertTrue(rows("#attributes img, #attributes b, #attributes script").isEmpty());
        assertThrows(
                NoAlertPresentException.class, () -> BROWSER.driver().switchTo().alert());
        // a long string cut, whole when opened
        WebElement log = row("attributes", "log");
        String cut = log.findElement(By.cssSelector("summary .j-string")).getText();
        assertEquals(JsonFolds.STRING + 3, cut.length(), cut);
        assertTrue(cut.endsWith("x\"…"), cut);
        assertEquals(
                "5,000 characters",
                log.findElement(By.cssSelector("summary .j-size")).getText());
        log.findElement(By.tagName("summary")).click();
        assertTrue(log.findElement(By.cssSelector(".j-whole")).getText().endsWith("the end\""));
        // the extras folded the same way
        assertEquals(
                "true",
                row("extras", "checked")
                        .findElement(By.cssSelector(".j-boolean"))
                        .getText());

        // a list of 1,000: a hundred rows when opened, then a hundred more at a time
        WebElement energies = row("attributes", "energies");
        energies.findElement(By.tagName("summary")).click();
        BROWSER.awaitSettled(
                10, d -> inside(energies, "li[contains(@class, 'j-row')]").size() == 100);
        assertEquals(
                "0",
                inside(energies, "li[1]/span[@class = 'j-key j-index']")
                        .getFirst()
                        .getText());
        assertEquals(
                "-0.5",
                inside(energies, "li[1]/span[@class = 'j-number']").getFirst().getText());
        WebElement more = inside(energies, "li[@class = 'j-more']/button").getFirst();
        assertEquals("Show 100 more of 900", more.getText());
        more.click();
        BROWSER.awaitSettled(
                10, d -> inside(energies, "li[contains(@class, 'j-row')]").size() == 200);
        assertEquals(
                "Show 100 more of 800",
                inside(energies, "li[@class = 'j-more']/button").getFirst().getText());
        BROWSER.driver().executeScript("window.scrollTo(0, 0)");
        BROWSER.screenshot("node-attributes");

        // the keyboard: Tab to the structure's fold, Enter opens it; its list, folded, opens with Space
        WebElement structure = row("attributes", "structure");
        WebElement summary = structure.findElement(By.tagName("summary"));
        BROWSER.driver()
                .executeScript("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)");
        for (int i = 0; i < 40 && !summary.equals(BROWSER.driver().switchTo().activeElement()); i++) {
            new Actions(BROWSER.driver()).sendKeys(Keys.TAB).perform();
        }
        assertEquals(summary, BROWSER.driver().switchTo().activeElement(), "the fold is reached with Tab");
        new Actions(BROWSER.driver()).sendKeys(Keys.ENTER).perform();
        BROWSER.awaitSettled(
                10, d -> inside(structure, "li[contains(@class, 'j-row')]").size() == 3);
        // its first row (keys in the order PostgreSQL's jsonb keeps them: shorter ones first), folded
        WebElement pbc = inside(structure, "li[1]").getFirst();
        assertEquals("pbc", pbc.findElement(By.cssSelector(".j-key")).getText());
        assertEquals(
                "[3 items]", pbc.findElement(By.cssSelector("summary .j-size")).getText());
        new Actions(BROWSER.driver()).sendKeys(Keys.TAB).sendKeys(Keys.SPACE).perform();
        BROWSER.awaitSettled(
                10, d -> inside(pbc, "li[contains(@class, 'j-row')]").size() == 3);
        assertEquals(
                "true",
                inside(pbc, "li[1]/span[@class = 'j-boolean']").getFirst().getText());
        // a list of lists: its items folded too
        WebElement cell = inside(structure, "li[details/summary/span[@class = 'j-key'] = 'cell']")
                .getFirst();
        assertEquals(
                "[3 items]", cell.findElement(By.cssSelector("summary .j-size")).getText());
        cell.findElement(By.tagName("summary")).click();
        BROWSER.awaitSettled(
                10, d -> inside(cell, "li[contains(@class, 'j-fold')]").size() == 3);
        assertEquals(
                "[3 items]",
                inside(cell, "li[1]/details/summary/span[contains(@class, 'j-size')]")
                        .getFirst()
                        .getText());

        // the raw JSON, behind the same session
        BROWSER.open(base() + "/ui/nodes/" + dict.uuid() + "/json/attributes");
        assertTrue(
                BROWSER.find("body").getText().contains("\"count\":7"),
                BROWSER.find("body").getText());
    }

    @Test
    void aFoldThatIsNotThereIsRefusedNamingIt() {
        DictData dict = engine.graph().store(new DictData(nested()));
        BROWSER.signedIn(base(), adminToken());
        String at = base() + "/ui/nodes/" + dict.uuid();
        BROWSER.open(at + "/folds/attributes?path=/structure/cell/7");
        assertEquals(
                "the attributes have nothing at '/structure/cell/7'",
                BROWSER.find("#problem").getText());
        BROWSER.open(at + "/folds/attributes?path=/count");
        assertEquals(
                "'/count' in the attributes is a single value, not an object or a list: it has no rows",
                BROWSER.find("#problem").getText());
        BROWSER.open(at + "/folds/attributes?path=structure");
        assertEquals(
                "'structure' is not a JSON Pointer: it starts with '/' ('/cell/0')",
                BROWSER.find("#problem").getText());
        BROWSER.open(at + "/folds/secrets");
        assertEquals(
                "'secrets' is not a part of a node that the page folds: attributes or extras",
                BROWSER.find("#problem").getText());
        // the node is as it was
        BROWSER.open(at);
        assertEquals(9, rows("#attributes > li.j-row").size());
    }

    /**
     * A node with 2 MB of attributes (positions, forces and symbols of 32,000 atoms) against a node with one
     * attribute, five page loads of each in turn: the page's own time from its request to its load event's
     * end, and the elements its attributes make.
     */
    @Test
    void aNodeWithTwoMegabytesOfAttributesLoadsAsFastAsASmallOne() throws Exception {
        Map<String, Object> big = new LinkedHashMap<>();
        List<List<Double>> positions = new ArrayList<>();
        List<List<Double>> forces = new ArrayList<>();
        List<String> symbols = new ArrayList<>();
        for (int i = 0; i < 32_000; i++) {
            positions.add(List.of(i * 0.123456789012, i * 0.234567890123, i * 0.345678901234));
            if (i < 14_000) {
                forces.add(List.of(i * 1.1e-5, -i * 2.2e-5, i * 3.3e-5));
            }
            symbols.add(i % 2 == 0 ? "Si" : "O");
        }
        big.put("positions", positions);
        big.put("forces", forces);
        big.put("symbols", symbols);
        Node large = engine.graph().store(new DictData(big));
        Node small = engine.graph().store(new IntData(7));
        int bytes = JsonMapper.builder().build().writeValueAsBytes(large.attributes()).length;
        assertTrue(bytes > 2_000_000, bytes + " bytes");

        BROWSER.signedIn(base(), adminToken());
        List<Long> smallRuns = new ArrayList<>();
        List<Long> largeRuns = new ArrayList<>();
        List<Long> largeServer = new ArrayList<>();
        for (int run = 0; run < RUNS; run++) {
            smallRuns.add(loaded(small, new ArrayList<>()));
            largeRuns.add(loaded(large, largeServer));
        }
        long elements =
                (Long) BROWSER.driver().executeScript("return document.querySelectorAll('#attributes *').length");
        long reference = median(smallRuns);
        long page = median(largeRuns);
        String figures = String.format(
                "node page, %s, load average %s: %,d bytes of attributes %d ms (%.1f× the 1-attribute node's %d ms),"
                        + " medians of %d runs %s / %s, of which the server's answer %s; %d elements for its attributes%n",
                LocalDate.now(ZoneOffset.UTC),
                Files.readString(Path.of("/proc/loadavg")).split(" ")[0],
                bytes,
                page,
                (double) page / reference,
                reference,
                RUNS,
                smallRuns,
                largeRuns,
                largeServer,
                elements);
        Browser.figure(figures);
        assertTrue(elements < 50, "only the first level is in the page: " + figures);
        assertTrue(page < 5 * Math.max(reference, 100), figures);
    }

    /**
     * The node's page loaded: navigation start to the end of its load event, by the page's own timing; the
     * server's part (request sent to the answer's first byte) added to {@code serverRuns}.
     */
    private long loaded(Node node, List<Long> serverRuns) {
        BROWSER.open(base() + "/ui/nodes/" + node.uuid());
        Number total = (Number) BROWSER.driver()
                .executeScript("const t = performance.getEntriesByType('navigation')[0];"
                        + " return t.loadEventEnd - t.startTime;");
        Number server = (Number) BROWSER.driver()
                .executeScript("const t = performance.getEntriesByType('navigation')[0];"
                        + " return t.responseStart - t.requestStart;");
        serverRuns.add(Math.round(server.doubleValue()));
        return Math.round(total.doubleValue());
    }

    private static long median(List<Long> runs) {
        List<Long> sorted = runs.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
