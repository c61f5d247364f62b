package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * No main source file of any module passes {@value #MAX_LINES} lines (docs/style.md): a class that large
 * does more than one job, and every change to any of them must pass through it. Split it along a seam,
 * with names that say what each part is; tests are not counted.
 */
class MainClassesSmallTest {

    static final int MAX_LINES = 450;

    @Test
    void noMainSourceFilePassesTheLimit() throws IOException {
        List<String> large = new ArrayList<>();
        int files = 0;
        for (Map.Entry<String, Path> module : ModuleSources.mainSources().entrySet()) {
            try (Stream<Path> walk = Files.walk(module.getValue())) {
                for (Path file : walk.filter(p -> p.toString().endsWith(".java"))
                        .sorted()
                        .toList()) {
                    files++;
                    long lines;
                    try (Stream<String> content = Files.lines(file)) {
                        lines = content.count();
                    }
                    if (lines > MAX_LINES) {
                        large.add(module.getKey() + ": " + module.getValue().relativize(file) + " has " + lines
                                + " lines");
                    }
                }
            }
        }
        assertTrue(files > 0, "found no main sources to check");
        assertTrue(
                large.isEmpty(),
                () -> "split these along a seam, one job per class (at most " + MAX_LINES + " lines each):\n  "
                        + String.join("\n  ", large));
    }
}
