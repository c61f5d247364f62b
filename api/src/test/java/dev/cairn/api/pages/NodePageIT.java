package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;

/**
 * A node's page in a real browser: its links in and out with their counts lead to the nodes at their other
 * ends, its files show their beginning, a comment added from the page is shown on it, and a read-only user is
 * offered no form to comment.
 */
class NodePageIT extends ApiTest {

    @RegisterExtension
    static final Browser BROWSER = new Browser();

    private String base() {
        return "http://localhost:" + port;
    }

    @Test
    void linksFilesAndCommentsAreShownAndACommentIsAdded() {
        IntData x = engine.graph().store(new IntData(3));
        CalcFunctionNode calc = new CalcFunctionNode("arithmetic.add_function");
        calc.addIncoming(x, LinkType.INPUT_CALC, "x");
        engine.graph().store(calc);
        Api admin = admin();
        Api.Response file = admin.send(admin.request("/api/v1/nodes/files?name=notes.txt")
                .header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofString("hello notes\n")));
        assertEquals(201, file.status(), file.toString());
        String fileUuid = file.json().get("uuid").asString();

        BROWSER.signedIn(base(), adminToken());
        BROWSER.open(base() + "/ui/nodes/" + x.uuid());
        assertEquals("Links out 1", BROWSER.find("#out-title").getText());
        WebElement out = BROWSER.find("#links-out-table tbody tr");
        assertTrue(out.getText().startsWith("input_calc x"), out.getText());
        out.findElement(By.cssSelector("a.uuid")).click();
        BROWSER.await(10, ExpectedConditions.urlContains("/ui/nodes/" + calc.uuid()));
        assertEquals("Links in 1", BROWSER.find("#in-title").getText());

        BROWSER.open(base() + "/ui/nodes/" + fileUuid);
        WebElement shown = BROWSER.find("#files details.file");
        assertTrue(shown.getText().contains("notes.txt"), shown.getText());
        assertEquals(
                "hello notes",
                shown.findElement(By.cssSelector("pre.preview")).getText().strip());
        BROWSER.find("#comment").sendKeys("read before the next run");
        BROWSER.find("#add-comment").click();
        BROWSER.await(
                10,
                ExpectedConditions.textToBePresentInElementLocated(
                        By.cssSelector("#comments article.comment"), "read before the next run"));
        BROWSER.screenshot("node");

        BROWSER.signedIn(base(), token(Role.READ));
        BROWSER.open(base() + "/ui/nodes/" + fileUuid);
        assertTrue(BROWSER.find("#comments").getText().contains("read before the next run"));
        assertTrue(BROWSER.driver().findElements(By.id("comment-form")).isEmpty(), "no form for a reader");
    }

    @Test
    void attributesAndExtrasAreShownAsJsonAndLinksComeFiftyToAPage() {
        CalcFunctionNode split = new CalcFunctionNode("examples.split");
        split.addIncoming(engine.graph().store(new IntData(0)), LinkType.INPUT_CALC, "x");
        engine.graph().store(split);
        List<IntData> parts = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            IntData part = new IntData(i);
            part.addIncoming(split, LinkType.CREATE, "part_" + i);
            parts.add(part);
        }
        engine.graph().storeAll(parts);
        Api.Response marked = admin().patch(
                        "/api/v1/nodes/" + parts.get(7).uuid(), "{\"extras\": {\"checked\": true, \"by\": \"ada\"}}");
        assertEquals(200, marked.status(), marked.toString());

        BROWSER.signedIn(base(), adminToken());
        BROWSER.open(base() + "/ui/nodes/" + parts.get(7).uuid());
        assertTrue(
                BROWSER.find("#attributes").getText().contains("value: 7"),
                BROWSER.find("#attributes").getText());
        assertTrue(
                BROWSER.find("#extras").getText().contains("by: \"ada\""),
                BROWSER.find("#extras").getText());

        BROWSER.open(base() + "/ui/nodes/" + split.uuid());
        assertEquals("Links out 120", BROWSER.find("#out-title").getText());
        Set<String> seen = new HashSet<>();
        List<Integer> pages = new ArrayList<>();
        while (true) {
            List<WebElement> rows = BROWSER.driver().findElements(By.cssSelector("#links-out-table tbody tr"));
            pages.add(rows.size());
            rows.forEach(r -> seen.add(r.findElement(By.cssSelector("a.uuid")).getText()));
            List<WebElement> next = BROWSER.driver().findElements(By.id("links-out-next"));
            if (next.isEmpty()) {
                break;
            }
            WebElement table = BROWSER.find("#links-out-table");
            next.getFirst().click();
            // the next page is a page of its own: wait for it to replace this one
            BROWSER.await(10, ExpectedConditions.stalenessOf(table));
            BROWSER.await(10, ExpectedConditions.presenceOfElementLocated(By.id("links-out-table")));
        }
        assertEquals(List.of(50, 50, 20), pages, "links out a page at a time");
        assertEquals(120, seen.size(), "every link once");
    }
}
