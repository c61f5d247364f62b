package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.SlowProcesses;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.WorkChainNode;

/**
 * The provenance graph page in a real browser: drawn at the positions the server laid out, a node's
 * descendants and ancestors expanded with a click, the graph centred on a clicked node, a process recoloured in place as its state changes, a fan-out of 2,000 outputs folded into a count that opens on a
 * click and whose members a click picks, the time to interactive of 2,000 nodes against 20, a fan-out of
 * 10,000 that stays usable, the path between two nodes, and the SVG export of the same drawing. The
 * times it took go to {@code target/web-figures.txt}.
 */
class GraphPageIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    static final int FAN = 2_000;
    /** The reference the speed of a large graph is given against: a calculation with as many outputs. */
    static final int SMALL_FAN = 20;

    static final int HUGE_FAN = 10_000;
    static final int RUNS = 5;
    /** The aim of issue 28 for 2,000 nodes, drawn and answering a click. */
    static final long AIM_MS = 1_000;
    /**
     * The median time to interactive of the 20-node reference on the 2-core machine with little else
     * running: a slower reference says the machine is loaded, and the aim is stretched by as much.
     */
    static final long REFERENCE_MS = 400;

    static IntData d1, d2, o1, o2, part, smallPart, hugePart;
    static CalcFunctionNode calc, calc2, fan, smallFan, hugeFan;
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
        part = outputs(fan, FAN).get(FAN / 2);
        smallFan = split();
        smallPart = outputs(smallFan, SMALL_FAN).get(SMALL_FAN / 2);
        hugeFan = split();
        hugePart = outputs(hugeFan, HUGE_FAN).get(HUGE_FAN / 2);
        BROWSER.signedIn("http://localhost:" + port, adminToken());
    }

    /** A calculation of its own input, to split into outputs. */
    private CalcFunctionNode split() {
        CalcFunctionNode split = new CalcFunctionNode("examples.split");
        split.addIncoming(engine.graph().store(new IntData(0)), LinkType.INPUT_CALC, "x");
        return engine.graph().store(split);
    }

    private List<IntData> outputs(CalcFunctionNode creator, int count) {
        List<IntData> outputs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            IntData out = new IntData(i);
            out.addIncoming(creator, LinkType.CREATE, "part_" + i);
            outputs.add(out);
        }
        engine.graph().storeAll(outputs);
        return outputs;
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
                .executeScript(
                        "return window.cairnGraph.getElementById(arguments[0]).nonempty()"
                                + " || window.cairnGraphMembers.has(arguments[0])",
                        uuid(node));
    }

    /** How many nodes are drawn as members of blocks (in their pictures). */
    private long members() {
        return ((Number) BROWSER.driver().executeScript("return window.cairnGraphMembers.size")).longValue();
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
        String legend = BROWSER.find("ul.legend").getText();
        for (String entry :
                List.of("data", "calculation", "workflow", "folded fan-out", "finished", "create", "input_calc")) {
            assertTrue(legend.contains(entry), "the legend names " + entry + ": " + legend);
        }
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
    void aClickOnANodeThenExpandDescendantsOrAncestorsWalksOneMoreLink() {
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

        // o1 is two links left of o2: o1 -> calc2 -> o2
        open(uuid(o2), "?depth=1&types=input_calc,create");
        assertTrue(has(calc2));
        assertFalse(has(o1), "two links away at depth 1");
        tap(uuid(calc2));
        BROWSER.find("#expand-in").click();
        awaitDrawn();
        assertTrue(has(o1), "its ancestor expanded");
        assertTrue(
                BROWSER.driver().getCurrentUrl().contains("expand=" + uuid(calc2) + "%3Ain"),
                BROWSER.driver().getCurrentUrl());
    }

    @Test
    void centringOnAClickedNodeDrawsTheGraphAroundItWithTheSameFilters() {
        open(uuid(d2), "?depth=1&types=input_calc,create");
        assertFalse(has(o1), "two links away from d2");
        tap(uuid(calc));
        BROWSER.find("#selected-centre").click();
        BROWSER.await(10, ExpectedConditions.urlContains("/ui/nodes/" + uuid(calc) + "/graph"));
        awaitDrawn();
        assertTrue(has(o1), "one link away from the new centre");
        assertTrue(
                BROWSER.driver().getCurrentUrl().contains("types=input_calc%2Ccreate")
                        || BROWSER.driver().getCurrentUrl().contains("types=input_calc,create"),
                "the link types kept: " + BROWSER.driver().getCurrentUrl());
    }

    @Test
    void aProcessThatChangesStateIsRecolouredInPlace() {
        String gate = "graph-" + System.nanoTime();
        Api.Response r = admin().post(
                        "/api/v1/processes",
                        "{\"entry_point\": \"test.gate\", \"inputs\": {\"gate\": \"" + gate + "\"}}");
        assertEquals(201, r.status(), r.toString());
        String uuid = r.json().get("uuid").asString();
        try {
            open(uuid, "?depth=1");
            BROWSER.await(10, ExpectedConditions.presenceOfElementLocated(By.cssSelector("#live-status.on")));
            BROWSER.driver().executeScript("window.notReloaded = true");
            String node = "window.cairnGraph.getElementById(arguments[0])";
            Object at = BROWSER.driver().executeScript("return JSON.stringify(" + node + ".position())", uuid);
            assertNotEquals("finished", BROWSER.driver().executeScript("return " + node + ".data('state')", uuid));
            SlowProcesses.open(gate);
            BROWSER.await(
                    20,
                    d -> "finished".equals(BROWSER.driver().executeScript("return " + node + ".data('state')", uuid)));
            assertEquals(at, BROWSER.driver().executeScript("return JSON.stringify(" + node + ".position())", uuid));
            assertEquals(
                    Boolean.TRUE,
                    BROWSER.driver().executeScript("return window.notReloaded === true"),
                    "recoloured in place, the page never reloaded");
        } finally {
            SlowProcesses.open(gate);
        }
    }

    @Test
    void aLargeFanOutIsFoldedIntoACountThatOpensOnAClick() {
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
        assertEquals(FAN, members(), "the fan-out in its block");
        assertEquals(2, count("node[kind != \"block\"]"), "its calculation and the calculation's input");
        assertEquals(0, count("node[kind = \"fold\"]"));
        // the opened fan-out is one block painted with its members, with one link to it in place of 2,000
        assertEquals(1, count("node[kind = \"block\"]"));
        assertEquals(0, count("edge[target = \"" + uuid(part) + "\"]"), "a member's own link is bundled");
        // interactive: a click where a member is painted picks it, selects it and shows its own link
        answered(uuid(part));
        BROWSER.await(5, ExpectedConditions.visibilityOfElementLocated(By.id("selection")));
        assertEquals(1, count("node:selected"));
        assertEquals(uuid(part), BROWSER.driver().executeScript("return window.cairnGraph.$(':selected').id()"));
        String title = BROWSER.find("#selected-title").getText();
        assertTrue(title.endsWith(" · " + part.id()), "the member named by its PK: " + title);
        assertEquals(1, count("edge[target = \"" + uuid(part) + "\"]"), "the selected member's link is shown");
        BROWSER.screenshot("graph-opened");
        Browser.figure(String.format(
                "graph, 1 calculation with %,d outputs: folded drawn in %d ms; opened drawn in %d ms, of"
                        + " which %d ms laid out and sent by the server (page's own timing); %d ms from the"
                        + " click to drawn (test's)%n",
                FAN, folded, opened, openedFetch, wall));
        // the aim is held by the test of time to interactive below; this one only fails a page that freezes
        assertTrue(opened < 15_000, "2,000 nodes drawn in " + opened + " ms");
    }

    /**
     * Time to interactive, from the page's request: the page's own time from navigation start to the
     * first frame painted with the graph, then a real mouse click on one of its nodes and the time that
     * click waited to be answered (the selection shown, painted). Five runs of a graph of 20 nodes and of
     * one of 2,000, one after the other, so both meet the same load.
     */
    @Test
    void twoThousandNodesAreDrawnAndAnswerAClickWithinTheAim() {
        List<Long> small = new ArrayList<>();
        List<Long> large = new ArrayList<>();
        List<String> phases = new ArrayList<>();
        for (int run = 0; run < RUNS; run++) {
            small.add(interactive(smallFan, "?depth=1", smallPart));
            large.add(interactive(fan, "?depth=1&open=" + uuid(fan) + "%3Aout", part));
            phases.add(BROWSER.find("body").getDomAttribute("data-graph-phases"));
        }
        assertEquals(FAN, members());
        long reference = median(small);
        long drawn = median(large);
        double load = Math.max(1.0, (double) reference / REFERENCE_MS);
        String figures = String.format(
                "graph, time to interactive (navigation start to drawn, then a real click answered): %,d outputs %d ms"
                        + " (%.1f× the %d-node reference, %d ms), medians of %d runs %s / %s; the 2,000-node page's"
                        + " phases in ms: %s%n",
                FAN, drawn, (double) drawn / reference, SMALL_FAN, reference, RUNS, small, large, phases);
        Browser.figure(figures);
        assertTrue(
                drawn < AIM_MS * load, String.format("over the aim of 1 s (× %.2f for the load): %s", load, figures));
    }

    /**
     * A fan-out of 10,000 stays usable: folded it is drawn at once; opened, the drawing is cut off at the
     * most it holds and says so, and still answers a click.
     */
    @Test
    void tenThousandNodesStayUsable() {
        long folded = open(uuid(hugeFan), "?depth=1");
        assertEquals(
                "10,000 more →",
                BROWSER.driver().executeScript("return window.cairnGraph.$('node[kind = \"fold\"]').data('label')"));
        long folds = answered("fold:" + uuid(hugeFan) + ":out");
        long start = System.nanoTime();
        long opened = awaitDrawn();
        long wall = (System.nanoTime() - start) / 1_000_000;
        assertTrue(
                BROWSER.find("#graph-status").getText().contains("cut off"),
                BROWSER.find("#graph-status").getText());
        long drawnNodes = count("node[kind != \"block\"]") + members();
        String member = (String) BROWSER.driver().executeScript("return [...window.cairnGraphMembers.keys()].pop()");
        long click = answered(member);
        String figures = String.format(
                "graph, 1 calculation with %,d outputs: folded drawn in %d ms, its count's click answered in %d ms;"
                        + " opened, cut off at %,d nodes, drawn in %d ms (%d ms to the test), a click on a member"
                        + " answered in %d ms; phases %s%n",
                HUGE_FAN,
                folded,
                folds,
                drawnNodes,
                opened,
                wall,
                click,
                BROWSER.find("body").getDomAttribute("data-graph-phases"));
        Browser.figure(figures);
        assertTrue(drawnNodes < HUGE_FAN, figures);
        // bounds that only a frozen page fails on a loaded 2-core machine
        assertTrue(opened < 10 * AIM_MS && click < 2 * AIM_MS, figures);
    }

    private static long median(List<Long> runs) {
        List<Long> sorted = runs.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /** Opens the graph around {@code centre}, clicks {@code member} as a person would; navigation start to answered. */
    private long interactive(Node centre, String query, Node member) {
        BROWSER.open("http://localhost:" + port + "/ui/nodes/" + uuid(centre) + "/graph" + query);
        awaitDrawn();
        long drawnAt = Long.parseLong(BROWSER.find("body").getDomAttribute("data-graph-at"));
        return drawnAt + answered(uuid(member));
    }

    /** Clicks the node {@code id} with the mouse where it is drawn; the milliseconds the click waited to be answered. */
    private long answered(String id) {
        @SuppressWarnings("unchecked")
        List<Number> at = (List<Number>) BROWSER.driver()
                .executeScript(
                        "const cy = window.cairnGraph, n = cy.getElementById(arguments[0]);"
                                + " cy.container().scrollIntoView({block: 'center'});"
                                + " const"
                                + " p = n.nonempty() ? n.position() : window.cairnGraphMembers.get(arguments[0]),"
                                + " c = cy.container(), r = c.getBoundingClientRect();"
                                + " return [Math.round(r.left + c.clientLeft + p.x * cy.zoom() + cy.pan().x),"
                                + " Math.round(r.top + c.clientTop + p.y * cy.zoom() + cy.pan().y)];",
                        id);
        new Actions(BROWSER.driver())
                .moveToLocation(at.get(0).intValue(), at.get(1).intValue())
                .click()
                .perform();
        BROWSER.await(10, d -> id.equals(BROWSER.find("body").getDomAttribute("data-graph-answered")));
        return Long.parseLong(BROWSER.find("body").getDomAttribute("data-graph-answered-ms"));
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
    void aPathToWhatIsNoNodeIsSaidInWords() {
        BROWSER.open("http://localhost:" + port + "/ui/nodes/" + uuid(d2) + "/graph?path=nonsense");
        BROWSER.await(30, d -> "error".equals(BROWSER.find("#graph-status").getDomAttribute("class")));
        String said = BROWSER.find("#graph-status").getText();
        assertTrue(said.contains("nonsense") && !said.contains("<"), said);
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
        assertTrue(svg.contains(">" + calc.id() + "</text>"), "the calculation named by its PK: " + svg);
        assertEquals(
                count("edge"), Pattern.compile("<line ").matcher(svg).results().count());
    }
}
