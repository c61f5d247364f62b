package dev.cairn.engine;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;

/**
 * Java source files parsed by the JDK's own compiler, with their Javadoc comments. Javadoc is not in
 * class files, so the tests that hold the documentation in place read the sources. Parsing only: no
 * class path is needed and nothing is compiled.
 */
final class JavaSources {

    private final List<CompilationUnitTree> units;
    private final DocTrees trees;

    private JavaSources(List<CompilationUnitTree> units, DocTrees trees) {
        this.units = units;
        this.trees = trees;
    }

    /** Parses {@code files}; a file that does not parse fails, so a broken check never passes quietly. */
    static JavaSources parse(List<Path> files) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("no system Java compiler: run the tests on a JDK, not a JRE");
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavacTask task;
        List<CompilationUnitTree> units = new ArrayList<>();
        // The trees keep the text they were parsed from (comments included), so the files may close.
        try (StandardJavaFileManager fileManager = javac.getStandardFileManager(diagnostics, Locale.ROOT, UTF_8)) {
            task = (JavacTask) javac.getTask(
                    null,
                    fileManager,
                    diagnostics,
                    List.of("-proc:none"),
                    null,
                    fileManager.getJavaFileObjectsFromPaths(files));
            task.parse().forEach(units::add);
        }
        List<String> errors = diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                .toList();
        if (!errors.isEmpty()) {
            throw new IllegalStateException("the sources do not parse:\n" + String.join("\n", errors));
        }
        return new JavaSources(units, DocTrees.instance(task));
    }

    /** The {@code .java} files under {@code folder}, at any depth, in a stable order. */
    static List<Path> javaFiles(Path folder) {
        try (Stream<Path> walk = Files.walk(folder)) {
            return walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<CompilationUnitTree> units() {
        return units;
    }

    /** The Javadoc comment of the declaration at {@code path}, or null when it has none or only tags. */
    DocCommentTree javadoc(TreePath path) {
        DocCommentTree doc = trees.getDocCommentTree(path);
        return doc == null || doc.getFullBody().isEmpty() ? null : doc;
    }

    /** Where {@code tree} starts, as {@code File.java:line}, for messages. */
    String where(CompilationUnitTree unit, Tree tree) {
        long start = trees.getSourcePositions().getStartPosition(unit, tree);
        Path file = Path.of(unit.getSourceFile().toUri());
        return file.getFileName() + ":" + unit.getLineMap().getLineNumber(start);
    }
}
