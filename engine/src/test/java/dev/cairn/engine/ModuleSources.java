package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The main sources of every module of the build, for the tests that check all of them: the folders
 * {@code src/main/java} of the modules beside this one (the tests run in the engine's folder).
 */
final class ModuleSources {

    /** The modules that must be found, so a run from another folder fails instead of checking nothing. */
    private static final Set<String> EXPECTED_MODULES =
            Set.of("objects", "storage", "engine", "api", "cli", "examples", "jmh");

    private ModuleSources() {}

    /** Each module's {@code src/main/java}, by module name. */
    static Map<String, Path> mainSources() throws IOException {
        Map<String, Path> modules = new TreeMap<>();
        try (Stream<Path> siblings = Files.list(Path.of(".."))) {
            for (Path module : siblings.sorted().toList()) {
                Path sources = module.resolve("src/main/java");
                if (Files.isRegularFile(module.resolve("pom.xml")) && Files.isDirectory(sources)) {
                    modules.put(module.getFileName().toString(), sources);
                }
            }
        }
        assertTrue(
                modules.keySet().containsAll(EXPECTED_MODULES),
                "expected the modules " + EXPECTED_MODULES + " beside "
                        + Path.of("").toAbsolutePath() + ", found " + modules.keySet());
        return modules;
    }
}
