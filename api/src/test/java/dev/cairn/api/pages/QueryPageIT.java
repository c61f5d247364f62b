package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.Node;

/**
 * The query page in a real browser: a query built in the form runs and lands in the URL, its rows link to
 * their nodes, its CSV holds every row (quoted where it must be); a query pasted as JSON runs the same way; and a
 * query that names what does not exist is refused beside the query as written.
 */
class QueryPageIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    static boolean stored;
    static final List<String> UUIDS = new ArrayList<>();

    @BeforeEach
    void fixture() {
        if (stored) {
            return;
        }
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            IntData n = new IntData(i);
            n.setLabel("query-page");
            nodes.add(n);
        }
        DictData awkward = new DictData(Map.of("formula", "=1+1", "text", "a, \"b\""));
        awkward.setLabel("query-page-csv");
        nodes.add(awkward);
        engine.graph().storeAll(nodes);
        nodes.forEach(n -> UUIDS.add(n.uuid().toString()));
        stored = true;
    }

    private String base() {
        return "http://localhost:" + port;
    }

    @Test
    void aQueryBuiltInTheFormRunsAndItsCsvHoldsEveryRow() {
        BROWSER.signedIn(base(), token(Role.READ));
        BROWSER.open(base() + "/ui/query");
        BROWSER.find("#f-type").sendKeys("data.core.int.Int.");
        BROWSER.find("#f-label").sendKeys("query-page");
        BROWSER.find("#f-field").sendKeys("attributes.value");
        new Select(BROWSER.find("#f-operator")).selectByValue(">");
        BROWSER.find("#f-value").sendKeys("1");
        BROWSER.find("#f-project").sendKeys("uuid, attributes.value");
        BROWSER.find("#f-order-by").sendKeys("id");
        BROWSER.find("#build").click();
        try {
            BROWSER.await(10, ExpectedConditions.presenceOfElementLocated(By.id("rows")));
        } catch (RuntimeException e) {
            System.out.println("DEBUG url " + BROWSER.driver().getCurrentUrl());
            System.out.println("DEBUG page " + BROWSER.driver().getPageSource());
            throw e;
        }
        assertTrue(
                BROWSER.driver().getCurrentUrl().contains("/ui/query?q="),
                BROWSER.driver().getCurrentUrl());
        assertEquals("3 in all", BROWSER.find("#row-count").getText());
        List<WebElement> rows = BROWSER.driver().findElements(By.cssSelector("#rows tbody tr"));
        List<String> values = rows.stream()
                .map(r -> r.findElements(By.tagName("td")).get(1).getText())
                .toList();
        assertEquals(List.of("2", "3", "4"), values);
        WebElement link = rows.getFirst().findElement(By.cssSelector("a.uuid"));
        assertEquals(UUIDS.get(2), link.getText());
        assertTrue(link.getAttribute("href").endsWith("/ui/nodes/" + UUIDS.get(2)), link.getAttribute("href"));
        assertTrue(BROWSER.find("#q").getAttribute("value").contains("\"attributes.value\":{\">\":1}"));
        BROWSER.screenshot("query");

        String csv = download(BROWSER.find("#csv").getAttribute("href"));
        assertEquals(
                "uuid,attributes.value\r\n" + UUIDS.get(2) + ",2\r\n" + UUIDS.get(3) + ",3\r\n" + UUIDS.get(4)
                        + ",4\r\n",
                csv);

        link.click();
        BROWSER.await(10, ExpectedConditions.urlContains("/ui/nodes/" + UUIDS.get(2)));
    }

    @Test
    void aCsvQuotesWhatItMustAndDefusesFormulas() {
        BROWSER.signedIn(base(), token(Role.READ));
        String query =
                "{\"path\": [{\"tag\": \"d\", \"entity\": \"node\", \"filters\": {\"label\": \"query-page-csv\"},"
                        + " \"project\": [\"attributes.formula\", \"attributes.text\"]}]}";
        BROWSER.open(base() + "/ui/query");
        String csv = download(base() + "/ui/query.csv?q=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
        assertEquals("attributes.formula,attributes.text\r\n'=1+1,\"a, \"\"b\"\"\"\r\n", csv);
    }

    @Test
    void aPastedQueryRunsAndItsCsvHoldsItsRows() {
        BROWSER.signedIn(base(), token(Role.READ));
        BROWSER.open(base() + "/ui/query");
        String pasted = "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"node_type\": \"data.core.int.Int.\","
                + " \"filters\": {\"label\": \"query-page\", \"attributes.value\": {\"<=\": 1}},"
                + " \"project\": [\"uuid\", \"attributes.value\"]}],"
                + " \"order_by\": [{\"tag\": \"n\", \"field\": \"attributes.value\", \"order\": \"desc\"}]}";
        WebElement box = BROWSER.find("#q");
        box.clear();
        box.sendKeys(pasted);
        BROWSER.find("#run").click();
        BROWSER.await(10, ExpectedConditions.presenceOfElementLocated(By.id("rows")));
        assertTrue(
                BROWSER.driver().getCurrentUrl().contains("/ui/query?q="),
                BROWSER.driver().getCurrentUrl());
        assertEquals("2 in all", BROWSER.find("#row-count").getText());
        assertEquals(List.of("uuid", "attributes.value"), texts("#rows thead th"));
        List<List<String>> rows = BROWSER.driver().findElements(By.cssSelector("#rows tbody tr")).stream()
                .map(r -> r.findElements(By.tagName("td")).stream()
                        .map(WebElement::getText)
                        .toList())
                .toList();
        assertEquals(List.of(List.of(UUIDS.get(1), "1"), List.of(UUIDS.get(0), "0")), rows);
        assertEquals(pasted, BROWSER.find("#q").getAttribute("value"), "the query as it was pasted");

        String csv = download(BROWSER.find("#csv").getAttribute("href"));
        assertEquals("uuid,attributes.value\r\n" + UUIDS.get(1) + ",1\r\n" + UUIDS.get(0) + ",0\r\n", csv);
    }

    private static List<String> texts(String css) {
        return BROWSER.driver().findElements(By.cssSelector(css)).stream()
                .map(WebElement::getText)
                .toList();
    }

    @Test
    void aQueryThatNamesWhatDoesNotExistIsRefusedBesideItsText() {
        BROWSER.signedIn(base(), token(Role.READ));
        BROWSER.open(base() + "/ui/query");
        String bad = "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"project\": [\"colour\"]}]}";
        WebElement box = BROWSER.find("#q");
        box.clear();
        box.sendKeys(bad);
        BROWSER.find("#run").click();
        String error = BROWSER.await(10, ExpectedConditions.visibilityOfElementLocated(By.id("query-error")))
                .getText();
        assertTrue(error.contains("unknown field 'colour'"), error);
        assertEquals(bad, BROWSER.find("#q").getAttribute("value"));
        assertTrue(BROWSER.driver().findElements(By.id("rows")).isEmpty());
        BROWSER.screenshot("query-refused");
    }

    /** The body at {@code url}, fetched by the page itself (with its session), as a person's download is. */
    private static String download(String url) {
        Object body = BROWSER.driver()
                .executeAsyncScript(
                        "const done = arguments[arguments.length - 1];"
                                + " fetch(arguments[0]).then(r => r.ok ? r.text() : 'HTTP ' + r.status)"
                                + ".then(t => done(JSON.stringify(t)), e => done(JSON.stringify(String(e))));",
                        url);
        // as JSON, so that the driver hands the text back as it was, line ends included
        return Api.json().readValue(String.valueOf(body), String.class);
    }
}
