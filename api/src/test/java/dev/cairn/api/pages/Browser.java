package dev.cairn.api.pages;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real browser for the web view's tests: Debian's chromium, headless, driven through its
 * chromedriver, named explicitly so that Selenium never looks for one to download. One browser per
 * test class, quit after it; public for the security tests that sign in through the pages. Screenshots go to {@code target/screenshots}, kept as test artifacts.
 */
public final class Browser implements BeforeAllCallback, AfterAllCallback {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private ChromeDriver driver;

    @Override
    public void beforeAll(ExtensionContext context) {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(DRIVER)) {
            throw new IllegalStateException(
                    "the web view's tests need Debian's chromium and chromium-driver (" + CHROMIUM + ", " + DRIVER
                            + "): run `source .ci/browser` (apt-get install chromium chromium-driver)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-gpu",
                "--window-size=1440,900");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (driver != null) {
            driver.quit();
        }
    }

    public ChromeDriver driver() {
        return driver;
    }

    /** Opens {@code url} and waits for the page to load. */
    public void open(String url) {
        driver.get(url);
    }

    public WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    /** Waits up to {@code seconds} for {@code condition}; an element replaced while it is read is read again. */
    public <T> T await(int seconds, ExpectedCondition<T> condition) {
        return new WebDriverWait(driver, Duration.ofSeconds(seconds))
                .ignoring(StaleElementReferenceException.class)
                .until(condition);
    }

    /**
     * Waits up to {@code seconds} for {@code condition} and then for htmx to settle what it swapped in: until
     * then the new elements carry its class {@code htmx-added} (a match on the class attribute misses them) and
     * their own {@code hx-} attributes are not yet processed (a click on them does nothing).
     */
    public void awaitSettled(int seconds, ExpectedCondition<?> condition) {
        await(seconds, condition);
        await(
                seconds,
                d -> (Boolean)
                        driver.executeScript(
                                "return document.querySelector('.htmx-added, .htmx-settling, .htmx-swapping, .htmx-request') === null"));
    }

    /** Resizes the window: a laptop's 1366×768, a large screen's 2560×1440. */
    void size(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
    }

    /** Saves what the browser shows as {@code target/screenshots/<name>.png}. */
    public Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new IllegalStateException("could not save the screenshot " + name + ": " + e.getMessage(), e);
        }
    }

    /** Adds {@code line} to {@code target/web-figures.txt}, where the page tests keep the times they measured. */
    public static void figure(CharSequence line) {
        try {
            Files.writeString(
                    SCREENSHOTS.resolveSibling("web-figures.txt"),
                    line,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException("could not write the figures: " + e.getMessage(), e);
        }
    }

    /** The ids of the elements that took the focus in {@code presses} presses of Tab from the top of the page. */
    public Set<String> tabThrough(int presses) {
        driver().executeScript("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)");
        Set<String> reached = new LinkedHashSet<>();
        for (int i = 0; i < presses; i++) {
            new Actions(driver()).sendKeys(Keys.TAB).perform();
            Object id = driver().executeScript("return document.activeElement.id");
            if (id != null && !id.toString().isEmpty()) {
                reached.add(id.toString());
            }
        }
        return reached;
    }

    /**
     * Signs in at {@code base} with a good {@code token} and waits for the dashboard: a page opened before the
     * sign-in's answer came would find no session.
     */
    public void signedIn(String base, String token) {
        signIn(base, token);
        await(10, ExpectedConditions.titleIs("Dashboard · Cairn"));
    }

    /** Signs in at {@code base} with {@code token} through the sign-in form. */
    public void signIn(String base, String token) {
        // away from the last test's page first (the sign-in page runs no live script): that page's script
        // must not fetch with the cookies gone, and be given a new session in the middle of this sign-in
        open(base + "/ui/sign-in");
        driver.manage().deleteAllCookies();
        open(base + "/ui/sign-in");
        find("#token").sendKeys(token);
        find("#sign-in").click();
    }
}
