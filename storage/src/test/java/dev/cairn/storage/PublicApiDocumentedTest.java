package dev.cairn.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Every public method and constructor of storage's public API has a Javadoc comment: the count that
 * docs/architecture.md gives, made by the same program ({@code src/build/UndocumentedMethods.java}, run
 * by the JDK that runs this test), must say none lacks one.
 */
class PublicApiDocumentedTest {

    @Test
    void everyPublicMethodOfThePublicApiHasJavadoc() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process counting = new ProcessBuilder(
                        java, Path.of("src/build/UndocumentedMethods.java").toString(), "src/main/java")
                .redirectErrorStream(true)
                .start();
        String out = new String(counting.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(counting.waitFor(2, TimeUnit.MINUTES), "the count did not end: " + out);
        assertEquals(0, counting.exitValue(), () -> "the count failed:\n" + out);
        List<String> lines = out.strip().lines().toList();
        String total = lines.getLast();
        assertTrue(
                total.matches("0 of [1-9][0-9]* public methods and constructors have no Javadoc"),
                () -> "say what each of these does and what it throws:\n  " + String.join("\n  ", lines));
    }
}
