package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;

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
}
