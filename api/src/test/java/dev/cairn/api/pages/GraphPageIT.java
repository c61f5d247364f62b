package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.WorkChainNode;

/**
 * The provenance graph page in a real browser: drawn at the positions the server laid out, a node's
 * descendants expanded with a click, a fan-out of 2,000 outputs folded into a count that opens on a
 * click, the path between two nodes, and the SVG export of the same drawing. The times it took go to
 * {@code target/web-figures.txt}.
 */
class GraphPageIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    static final int FAN = 2_000;

    static IntData d1, d2, o1, o2, part;
    static CalcFunctionNode calc, calc2, fan;
    static WorkChainNode wf;

    @BeforeEach
    void fixture() {
        if (d1 != null) {
            return;
        }
        var graph = engine.graph();
        d1 = graph.store(new IntData(1));
        d2 = graph.store(new IntData(2));
        wf = new WorkChainNode("examples.wf");
        wf.addIncoming(d1, LinkType.INPUT_WORK, "a");
        graph.store(wf);
        calc = new CalcFunctionNode("arithmetic.add_function");
        calc.addIncoming(d1, LinkType.INPUT_CALC, "x");
        calc.addIncoming(d2, LinkType.INPUT_CALC, "y");
        calc.addIncoming(wf, LinkType.CALL_CALC, "c1");
        graph.store(calc);
        o1 = new IntData(3);
        o1.addIncoming(calc, LinkType.CREATE, "sum");
        graph.store(o1);
        graph.addReturnLink(wf, o1, "result");
        calc2 = new CalcFunctionNode("arithmetic.add_function");
        calc2.addIncoming(o1, LinkType.INPUT_CALC, "x");
        graph.store(calc2);
        o2 = new IntData(4);
        o2.addIncoming(calc2, LinkType.CREATE, "sum");
        graph.store(o2);
        fan = new CalcFunctionNode("examples.split");
        fan.addIncoming(o2, LinkType.INPUT_CALC, "x");
        graph.store(fan);
        List<IntData> outputs = new ArrayList<>();
        for (int i = 0; i < FAN; i++) {
            IntData out = new IntData(i);
            out.addIncoming(fan, LinkType.CREATE, "part_" + i);
            outputs.add(out);
        }
        graph.storeAll(outputs);
        part = outputs.get(FAN / 2);
        BROWSER.signedIn("http://localhost:" + port, adminToken());
    }

    /** Opens the graph page with {@code query} and waits until it is drawn; returns the milliseconds it took. */
    private long open(String uuid, String query) {
        BROWSER.open("http://localhost:" + port + "/ui/nodes/" + uuid + "/graph" + query);
        return awaitDrawn();
    }

    private long awaitDrawn() {
        BROWSER.await(30, d -> "true".equals(BROWSER.find("body").getDomAttribute("data-graph-ready")));
        return Long.parseLong(BROWSER.find("body").getDomAttribute("data-graph-ms"));
    }

    private long count(String selector) {
        return ((Number) BROWSER.driver().executeScript("return window.cairnGraph.$(arguments[0]).length", selector))
                .longValue();
    }

    private boolean has(Object node) {
        return (Boolean) BROWSER.driver()
                .executeScript("return window.cairnGraph.getElementById(arguments[0]).nonempty()", uuid(node));
    }

    private static String uuid(Object node) {
        return ((Node) node).uuid().toString();
    }

    private void tap(String id) {
        BROWSER.driver().executeScript("window.cairnGraph.getElementById(arguments[0]).emit('tap')", id);
    }

    @Test
    void theGraphAroundANodeIsDrawnWithEveryKindOfNodeAndLink() {
        open(uuid(calc), "?depth=2");
        for (Object node : List.of(d1, d2, wf, calc, o1, calc2)) {
            assertTrue(has(node), "drawn: " + node);
        }
        assertEquals(1, count("node[kind = \"workflow\"]"));
        assertTrue(count("edge[type = \"call_calc\"]") == 1 && count("edge[type = \"return\"]") == 1);
        assertTrue(count("edge[type = \"input_work\"]") == 1, "links among the nodes drawn, not only those walked");
        // laid out left to right: a creator stands left of what it created
        double calcX = ((Number) BROWSER.driver()
                        .executeScript(
                                "return window.cairnGraph.getElementById(arguments[0]).position('x')", uuid(calc)))
                .doubleValue();
        double o1X = ((Number) BROWSER.driver()
                        .executeScript("return window.cairnGraph.getElementById(arguments[0]).position('x')", uuid(o1)))
                .doubleValue();
        assertTrue(calcX < o1X, calcX + " < " + o1X);
        BROWSER.screenshot("graph");
    }

    @Test
    void aClickOnANodeThenExpandDescendantsWalksOneMoreLink() {
        open(uuid(d2), "?depth=1&types=input_calc,create");
        assertTrue(has(calc));
        assertFalse(has(o1), "two links away at depth 1");
        tap(uuid(calc));
        BROWSER.find("#expand-out").click();
        awaitDrawn();
        assertTrue(has(o1), "expanded");
        assertTrue(
                BROWSER.driver().getCurrentUrl().contains("expand=" + uuid(calc) + "%3Aout"),
                BROWSER.driver().getCurrentUrl());
    }

    @Test
    void aLargeFanOutIsFoldedIntoACountThatOpensOnAClick() throws IOException {
        long folded = open(uuid(fan), "?depth=1");
        assertEquals(1, count("node[kind = \"fold\"]"));
        String label = (String)
                BROWSER.driver().executeScript("return window.cairnGraph.$('node[kind = \"fold\"]').data('label')");
        assertEquals("2,000 more →", label);
        BROWSER.screenshot("graph-folded");
        long start = System.nanoTime();
        tap("fold:" + uuid(fan) + ":out");
        long opened = awaitDrawn();
        long openedFetch = Long.parseLong(BROWSER.find("body").getDomAttribute("data-graph-fetch-ms"));
        long wall = (System.nanoTime() - start) / 1_000_000;
        assertEquals(
                FAN + 2, count("node[kind != \"block\"]"), "the fan-out, its calculation and the calculation's input");
        assertEquals(0, count("node[kind = \"fold\"]"));
        // the opened fan-out is one block behind its members, with one link to it in place of 2,000
        assertEquals(1, count("node[kind = \"block\"]"));
        assertEquals(0, count("edge[target = \"" + uuid(part) + "\"]"), "a member's own link is bundled");
        // interactive: a click right after the drawing selects a node, and shows its own link
        tap(uuid(part));
        BROWSER.await(5, ExpectedConditions.visibilityOfElementLocated(By.id("selection")));
        assertEquals(1, count("edge[target = \"" + uuid(part) + "\"]"), "the selected member's link is shown");
        BROWSER.screenshot("graph-opened");
        Files.writeString(
                Browser.SCREENSHOTS.resolveSibling("web-figures.txt"),
                String.format(
                        "graph, 1 calculation with %,d outputs: folded drawn in %d ms; opened drawn in %d ms, of"
                                + " which %d ms laid out and sent by the server (page's own timing); %d ms from the"
                                + " click to drawn (test's)%n",
                        FAN, folded, opened, openedFetch, wall),
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        // the aim is 1 s; drawing took 3 to 6 s on a 2-core machine loaded by other builds (software
        // rendering, no GPU), so this bound only fails a page that freezes as Argo's and Dagster's do
        assertTrue(opened < 15_000, "2,000 nodes drawn in " + opened + " ms");
    }

    @Test
    void thePathBetweenTwoNodesIsDrawnAndMarked() {
        open(uuid(d2), "?depth=1&path=" + uuid(o2));
        for (Object node : List.of(d2, calc, o1, calc2, o2)) {
            assertTrue(has(node), "on the path: " + node);
            assertTrue((Boolean) BROWSER.driver()
                    .executeScript(
                            "return window.cairnGraph.getElementById(arguments[0]).data('onPath') === true",
                            uuid(node)));
        }
    }

    @Test
    void theSvgExportDrawsTheSameGraph() {
        open(uuid(calc), "?depth=2");
        String href = BROWSER.find("#export-svg").getDomAttribute("href");
        String svg = (String)
                BROWSER.driver().executeAsyncScript("fetch(arguments[0]).then(r => r.text()).then(arguments[1])", href);
        assertTrue(svg.startsWith("<svg "), svg);
        long drawn = count("node");
        long shapes = Pattern.compile("<(ellipse|rect) ").matcher(svg).results().count();
        assertEquals(drawn, shapes, svg);
        assertEquals(
                count("edge"), Pattern.compile("<line ").matcher(svg).results().count());
    }
}
