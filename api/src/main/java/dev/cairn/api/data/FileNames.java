package dev.cairn.api.data;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * The names of uploaded files: relative paths of names separated by '/', which is where they go
 * among the node's files. Nothing may reach outside the node's folder or read differently on
 * another system: no absolute path, no '.', '..' or empty name, no backslash.
 */
final class FileNames {

    private FileNames() {}

    static String check(String name) {
        if (name == null || name.isBlank()) {
            throw new InvalidInputException(
                    "an uploaded file has no name; give each part a filename (curl -F 'file=@a.txt'), or ?name= for a"
                            + " raw body");
        }
        String why = null;
        if (name.startsWith("/") || (name.length() > 1 && name.charAt(1) == ':')) {
            why = "it is an absolute path";
        } else if (name.indexOf('\\') >= 0 || name.indexOf('\0') >= 0) {
            why = "it holds a backslash or a NUL";
        } else {
            for (String segment : name.split("/", -1)) {
                if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                    why = "it has an empty, '.' or '..' name";
                    break;
                }
            }
        }
        if (why != null) {
            throw new InvalidInputException("file name '" + name + "' is refused: " + why + "; a file name is a"
                    + " relative path of names separated by '/' (a.txt, out/a.txt)");
        }
        return name;
    }
}
