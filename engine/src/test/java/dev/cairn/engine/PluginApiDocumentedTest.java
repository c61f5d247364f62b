package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.doctree.ParamTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import org.junit.jupiter.api.Test;

/**
 * The plugin author's API ({@code dev.cairn.engine.process} and {@code dev.cairn.engine.plugin}) is
 * documented: every public type, and every public or protected constructor, method, field and enum
 * constant of one, has a Javadoc comment, and a record's comment has an {@code @param} for each
 * component (the only place a component's comment can go). An {@code @Override} needs none: it
 * inherits the comment of what it overrides. Members of nested types count when the nested type is
 * itself public (or a member of an interface, which makes it public).
 */
class PluginApiDocumentedTest {

    /** The engine's sources, relative to the module folder that the tests run in. */
    private static final Path ENGINE = Path.of("src/main/java/dev/cairn/engine");

    static final List<Path> PLUGIN_API = List.of(ENGINE.resolve("process"), ENGINE.resolve("plugin"));

    @Test
    void everyPublicMemberOfThePluginApiHasJavadoc() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path folder : PLUGIN_API) {
            List<Path> found = JavaSources.javaFiles(folder);
            assertFalse(found.isEmpty(), "no sources found under " + folder.toAbsolutePath());
            files.addAll(found);
        }
        JavaSources sources = JavaSources.parse(files);
        List<String> missing = new ArrayList<>();
        for (CompilationUnitTree unit : sources.units()) {
            for (Tree declaration : unit.getTypeDecls()) {
                if (declaration instanceof ClassTree type && is(type.getModifiers(), Modifier.PUBLIC)) {
                    checkType(sources, new TreePath(new TreePath(unit), type), "", missing);
                }
            }
        }
        assertTrue(
                missing.isEmpty(),
                () -> missing.size() + " public members of the plugin API have no Javadoc (say what each does for a"
                        + " plugin author):\n  " + String.join("\n  ", missing));
    }

    private static void checkType(JavaSources sources, TreePath path, String outer, List<String> missing) {
        CompilationUnitTree unit = path.getCompilationUnit();
        ClassTree type = (ClassTree) path.getLeaf();
        String name = outer + type.getSimpleName();
        DocCommentTree doc = sources.javadoc(path);
        if (doc == null) {
            missing.add(sources.where(unit, type) + " " + kind(type) + " " + name);
        }
        boolean inInterface = type.getKind() == Tree.Kind.INTERFACE || type.getKind() == Tree.Kind.ANNOTATION_TYPE;
        boolean record = type.getKind() == Tree.Kind.RECORD;
        Set<String> params = doc == null
                ? Set.of()
                : doc.getBlockTags().stream()
                        .filter(t -> t instanceof ParamTree p && !p.isTypeParameter())
                        .map(t -> ((ParamTree) t).getName().getName().toString())
                        .collect(Collectors.toSet());
        for (Tree member : type.getMembers()) {
            TreePath memberPath = new TreePath(path, member);
            switch (member) {
                case ClassTree nested -> {
                    if (visible(nested.getModifiers(), inInterface)) {
                        checkType(sources, memberPath, name + ".", missing);
                    }
                }
                case MethodTree method -> {
                    if (visible(method.getModifiers(), inInterface)
                            && !overrides(method)
                            && sources.javadoc(memberPath) == null) {
                        missing.add(sources.where(unit, method) + " " + signature(name, method));
                    }
                }
                case VariableTree field -> {
                    // A record's instance fields are its components: the parser makes each one a private field.
                    if (record && !is(field.getModifiers(), Modifier.STATIC)) {
                        if (!params.contains(field.getName().toString())) {
                            missing.add(sources.where(unit, field) + " record component " + name + "." + field.getName()
                                    + " (an @param in the record's comment)");
                        }
                    } else if (visible(field.getModifiers(), inInterface) && sources.javadoc(memberPath) == null) {
                        String what = isEnumConstant(type, field) ? " enum constant " : " field ";
                        missing.add(sources.where(unit, field) + what + name + "." + field.getName());
                    }
                }
                default -> {}
            }
        }
    }

    /** Public, protected, or declared in an interface without {@code private} (so public). */
    private static boolean visible(ModifiersTree modifiers, boolean inInterface) {
        return is(modifiers, Modifier.PUBLIC)
                || is(modifiers, Modifier.PROTECTED)
                || inInterface && !is(modifiers, Modifier.PRIVATE);
    }

    /** In the parse tree an enum constant is a field of the enum's own type. */
    private static boolean isEnumConstant(ClassTree type, VariableTree field) {
        return type.getKind() == Tree.Kind.ENUM && field.getType().toString().contentEquals(type.getSimpleName());
    }

    private static boolean is(ModifiersTree modifiers, Modifier modifier) {
        return modifiers.getFlags().contains(modifier);
    }

    private static boolean overrides(MethodTree method) {
        return method.getModifiers().getAnnotations().stream().anyMatch(a -> {
            String annotation = a.getAnnotationType().toString();
            return annotation.equals("Override") || annotation.equals("java.lang.Override");
        });
    }

    private static String kind(ClassTree type) {
        return switch (type.getKind()) {
            case INTERFACE -> "interface";
            case ANNOTATION_TYPE -> "annotation";
            case ENUM -> "enum";
            case RECORD -> "record";
            default -> "class";
        };
    }

    private static String signature(String owner, MethodTree method) {
        String parameters =
                method.getParameters().stream().map(p -> p.getType().toString()).collect(Collectors.joining(", "));
        boolean constructor = method.getName().contentEquals("<init>");
        return (constructor ? "constructor " + owner : "method " + owner + "." + method.getName()) + "(" + parameters
                + ")";
    }
}
