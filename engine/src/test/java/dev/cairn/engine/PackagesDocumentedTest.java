package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.TreePath;
import org.junit.jupiter.api.Test;

/**
 * Every package of every module says what it holds: each folder of {@code src/main/java} with Java
 * sources has a {@code package-info.java} whose package declaration carries a Javadoc comment. The
 * modules are found beside this one ({@link ModuleSources}); the check lives here
 * because the engine's tests already read sources (see {@link PluginApiDocumentedTest}).
 */
class PackagesDocumentedTest {

    @Test
    void everyPackageHasAPackageInfoWithJavadoc() throws IOException {
        List<Path> packageInfos = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, Path> module : ModuleSources.mainSources().entrySet()) {
            Path sources = module.getValue();
            for (Path folder : packageFolders(sources)) {
                Path info = folder.resolve("package-info.java");
                if (Files.isRegularFile(info)) {
                    packageInfos.add(info);
                } else {
                    missing.add(module.getKey() + ": " + packageName(sources, folder) + " has no package-info.java");
                }
            }
        }
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
