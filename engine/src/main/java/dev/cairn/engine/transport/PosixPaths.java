package dev.cairn.engine.transport;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * Checks and joins the absolute POSIX path strings that {@link Transport} takes. They stay
 * strings, not {@link java.nio.file.Path}s: a path on a remote computer must not be resolved
 * against this machine's file system.
 */
public final class PosixPaths {

    private PosixPaths() {}

    /** {@code path} without repeated or trailing slashes; refuses a relative or empty path. */
    static String absolute(String path) {
        if (path == null || !path.startsWith("/")) {
            throw new InvalidInputException(
                    "not an absolute POSIX path: " + (path == null ? "null" : "'" + path + "'"));
        }
        if (path.indexOf('\0') >= 0) {
            throw new InvalidInputException("a path cannot hold a NUL character: '" + path.replace('\0', '?') + "'");
        }
        String p = path.replaceAll("/{2,}", "/");
        return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    /** {@code name} inside {@code directory}, both already checked. */
    static String child(String directory, String name) {
        return directory.equals("/") ? "/" + name : directory + "/" + name;
    }

    /** The directory holding {@code path}; "/" for "/" and its entries. */
    static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    /** {@code s} as one word for {@code /bin/sh}: single-quoted, with each ' written as '\''. */
    public static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** {@link #absolute} for removal, which refuses "/": removing the root is never what a caller meant. */
    static String removable(String path) {
        String p = absolute(path);
        if (p.equals("/")) {
            throw new InvalidInputException("refusing to remove '/'");
        }
        return p;
    }
}
