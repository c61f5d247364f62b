import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;

/**
 * Counts the public methods and constructors of storage's public API (public types outside its
 * {@code internal} packages, nested public types included) and lists those without a Javadoc comment.
 * An {@code @Override} inherits its comment, and a record's accessors and canonical constructor are
 * documented by the record's comment, so none of them counts. Parses only: run it with the JDK alone, from the repository's root:
 * {@code java storage/src/build/UndocumentedMethods.java [storage/src/main/java]}.
 */
public class UndocumentedMethods {

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : "storage/src/main/java");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.toString().contains("/internal/"))
                    .filter(p -> !p.getFileName().toString().equals("package-info.java"))
                    .sorted()
                    .toList();
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager fm = compiler.getStandardFileManager(null, null, null)) {
            JavacTask task = (JavacTask) compiler.getTask(
                    null, fm, d -> {}, List.of("-proc:none"), null, fm.getJavaFileObjectsFromPaths(files));
            DocTrees docs = DocTrees.instance(task);
            int[] counts = new int[2];
            List<String> missing = new ArrayList<>();
            for (CompilationUnitTree unit : task.parse()) {
                for (Tree t : unit.getTypeDecls()) {
                    if (t instanceof ClassTree type && is(type.getModifiers(), Modifier.PUBLIC)) {
                        visit(docs, new TreePath(new TreePath(unit), type), "", counts, missing);
                    }
                }
            }
            missing.forEach(System.out::println);
            System.out.println(counts[1] + " of " + counts[0] + " public methods and constructors have no Javadoc");
        }
    }

    private static void visit(DocTrees docs, TreePath path, String outer, int[] counts, List<String> missing) {
        ClassTree type = (ClassTree) path.getLeaf();
        String name = outer + type.getSimpleName();
        boolean inInterface = type.getKind() == Tree.Kind.INTERFACE || type.getKind() == Tree.Kind.ANNOTATION_TYPE;
        List<String> components = type.getKind() != Tree.Kind.RECORD
                ? List.of()
                : type.getMembers().stream()
                        .filter(m -> m instanceof VariableTree v && !is(v.getModifiers(), Modifier.STATIC))
                        .map(m -> ((VariableTree) m).getName().toString())
                        .toList();
        for (Tree member : type.getMembers()) {
            ModifiersTree modifiers = switch (member) {
                case ClassTree c -> c.getModifiers();
                case MethodTree m -> m.getModifiers();
                default -> null;
            };
            if (modifiers == null
                    || !(is(modifiers, Modifier.PUBLIC) || inInterface && !is(modifiers, Modifier.PRIVATE))) {
                continue;
            }
            TreePath memberPath = new TreePath(path, member);
            if (member instanceof ClassTree) {
                visit(docs, memberPath, name + ".", counts, missing);
                continue;
            }
            MethodTree method = (MethodTree) member;
            boolean overrides = method.getModifiers().getAnnotations().stream()
                    .anyMatch(a -> a.getAnnotationType().toString().endsWith("Override"));
            boolean accessor = method.getParameters().isEmpty() && components.contains(method.getName().toString());
            boolean canonical = !components.isEmpty()
                    && method.getName().contentEquals("<init>")
                    && method.getParameters().stream().map(p -> p.getName().toString()).toList().equals(components);
            if (overrides || accessor || canonical) {
                continue;
            }
            counts[0]++;
            if (docs.getDocCommentTree(memberPath) == null) {
                counts[1]++;
                long line = path.getCompilationUnit().getLineMap()
                        .getLineNumber(docs.getSourcePositions().getStartPosition(path.getCompilationUnit(), method));
                String what = method.getName().contentEquals("<init>") ? name : name + "." + method.getName();
                missing.add(Path.of(path.getCompilationUnit().getSourceFile().toUri()).getFileName() + ":" + line + " "
                        + what + "(" + method.getParameters().stream().map(p -> p.getType().toString())
                                .collect(Collectors.joining(", ")) + ")");
            }
        }
    }

    private static boolean is(ModifiersTree modifiers, Modifier modifier) {
        return modifiers.getFlags().contains(modifier);
    }
}
