package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;

/**
 * The pages' controls beyond the process list's and a process's (which {@code ProcessPagesIT} tabs through):
 * on the sign-in, graph and query pages the main controls are reached with Tab, and every control a page
 * shows has a name a screen reader reads (an aria-label, a label, or its own text).
 */
class KeyboardAndLabelsIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    private String base() {
        return "http://localhost:" + port;
    }

    @Test
    void theMainControlsOfTheSignInGraphAndQueryPagesAreReachedWithTabAndNamed() {
        BROWSER.driver().manage().deleteAllCookies();
        BROWSER.open(base() + "/ui/sign-in");
        check("sign-in", List.of("token", "sign-in"));

        BROWSER.signedIn(base(), adminToken());
        IntData x = engine.graph().store(new IntData(3));
        CalcFunctionNode calc = new CalcFunctionNode("arithmetic.add_function");
        calc.addIncoming(x, LinkType.INPUT_CALC, "x");
        engine.graph().store(calc);
        BROWSER.open(base() + "/ui/nodes/" + x.uuid() + "/graph");
        BROWSER.await(30, d -> "true".equals(BROWSER.find("body").getDomAttribute("data-graph-ready")));
        check("graph", List.of("depth", "path-to", "redraw", "export-svg"));

        BROWSER.open(base() + "/ui/query");
        check("query", List.of("f-entity", "f-type", "f-field", "f-value", "build", "q", "run"));
    }

    /** Tabs through the page: each of {@code main} is reached; every control shown is named. */
    private void check(String page, List<String> main) {
        Set<String> reached = BROWSER.tabThrough(60);
        for (String id : main) {
            assertTrue(reached.contains(id), page + ": " + id + " reached with Tab, of " + reached);
        }
        assertEquals(List.of(), unnamed(), page + ": controls without a name a screen reader reads");
    }

    /**
     * The shown inputs, selects, text areas, buttons and links-as-buttons without an accessible name: no
     * aria-label or aria-labelledby, no label with text, no text of their own (a button's), no title.
     */
    @SuppressWarnings("unchecked")
    private static List<String> unnamed() {
        return (List<String>) BROWSER.driver()
                .executeScript("return [...document.querySelectorAll('input:not([type=hidden]), select, textarea,"
                        + " button, [role=button]')].filter((e) => e.offsetParent !== null).filter((e) => {"
                        + " const text = (s) => s && s.trim().length > 0;"
                        + " return !(text(e.getAttribute('aria-label')) || e.getAttribute('aria-labelledby')"
                        + " || (e.labels && [...e.labels].some((l) => text(l.textContent)))"
                        + " || (e.matches('button, [role=button]') && text(e.textContent)) || text(e.title)); })"
                        + ".map((e) => e.outerHTML.slice(0, 120));");
    }
}
