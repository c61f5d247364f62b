package dev.cairn.engine.internal.calcjob;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

import dev.cairn.engine.transport.Transport;

/**
 * Entries of a retrieve list as the paths they name in a work directory: a plain path when it
 * exists, and for a glob ({@code *}, {@code ?}, {@code [...]} within any of its names) every path
 * it matches, found by listing the directories on the way. A glob's names match as a shell's do,
 * within one name ({@code *} never crosses a '/'), hidden files included only when asked for with a
 * leading dot.
 */
final class RemoteGlobs {

    private RemoteGlobs() {}

    /** The paths, relative to {@code workdir}, that {@code entry} names there and that exist. */
    static List<String> expand(Transport transport, String workdir, String entry) {
        if (!isGlob(entry)) {
            return transport.exists(workdir + "/" + entry) ? List.of(entry) : List.of();
        }
        List<String> found = List.of("");
        for (String name : entry.split("/+")) {
            List<String> next = new ArrayList<>();
            for (String parent : found) {
                String dir = parent.isEmpty() ? workdir : workdir + "/" + parent;
                if (!isGlob(name)) {
                    if (transport.exists(dir + "/" + name)) {
                        next.add(join(parent, name));
                    }
                    continue;
                }
                if (!transport.isDirectory(dir)) {
                    continue;
                }
                PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + name);
                for (String child : transport.list(dir)) {
                    boolean hiddenAskedFor = name.startsWith(".");
                    if ((hiddenAskedFor || !child.startsWith(".")) && matcher.matches(Path.of(child))) {
                        next.add(join(parent, child));
                    }
                }
            }
            found = next;
        }
        return found;
    }

    static boolean isGlob(String path) {
        return path.indexOf('*') >= 0 || path.indexOf('?') >= 0 || path.indexOf('[') >= 0;
    }

    private static String join(String parent, String name) {
        return parent.isEmpty() ? name : parent + "/" + name;
    }
}
