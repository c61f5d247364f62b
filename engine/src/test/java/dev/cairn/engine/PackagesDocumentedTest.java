package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.TreePath;
import org.junit.jupiter.api.Test;

/**
 * Every package of every module says what it holds: each folder of {@code src/main/java} with Java
 * sources has a {@code package-info.java} whose package declaration carries a Javadoc comment. The
 * modules are found beside this one (the tests run in the engine's folder); the check lives here
 * because the engine's tests already read sources (see {@link PluginApiDocumentedTest}).
 */
class PackagesDocumentedTest {

    /** The modules that must be found, so a run from another folder fails instead of checking nothing. */
    private static final Set<String> EXPECTED_MODULES = Set.of("objects", "storage", "engine", "examples", "jmh");

    @Test
    void everyPackageHasAPackageInfoWithJavadoc() throws IOException {
        Set<String> modules = new TreeSet<>();
        List<Path> packageInfos = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        try (Stream<Path> siblings = Files.list(Path.of(".."))) {
            for (Path module : siblings.sorted().toList()) {
                Path sources = module.resolve("src/main/java");
                if (!Files.isRegularFile(module.resolve("pom.xml")) || !Files.isDirectory(sources)) {
                    continue;
                }
                modules.add(module.getFileName().toString());
                for (Path folder : packageFolders(sources)) {
                    Path info = folder.resolve("package-info.java");
                    if (Files.isRegularFile(info)) {
                        packageInfos.add(info);
                    } else {
                        missing.add(module.getFileName() + ": " + packageName(sources, folder)
                                + " has no package-info.java");
                    }
                }
            }
        }
        assertTrue(
                modules.containsAll(EXPECTED_MODULES),
                "expected the modules " + EXPECTED_MODULES + " beside "
                        + Path.of("").toAbsolutePath() + ", found " + modules);
        JavaSources parsed = JavaSources.parse(packageInfos);
        for (CompilationUnitTree unit : parsed.units()) {
            if (unit.getPackage() == null
                    || parsed.javadoc(new TreePath(new TreePath(unit), unit.getPackage())) == null) {
                missing.add(Path.of(unit.getSourceFile().toUri()) + " has no Javadoc comment on its package");
            }
        }
        assertTrue(
                missing.isEmpty(),
                () -> "say in a package-info.java what each package holds, what it is for and who may use it:\n  "
                        + String.join("\n  ", missing));
    }

    /** The folders under {@code sources} that hold Java sources other than a package-info. */
    private static List<Path> packageFolders(Path sources) throws IOException {
        try (Stream<Path> walk = Files.walk(sources)) {
            return walk.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().equals("package-info.java"))
                    .map(Path::getParent)
                    .distinct()
                    .sorted()
                    .toList();
        }
    }

    private static String packageName(Path sources, Path folder) {
        return sources.relativize(folder)
                .toString()
                .replace(folder.getFileSystem().getSeparator(), ".");
    }
}
