package dev.cairn.storage.archive.aiida;

import java.util.regex.Pattern;

import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * The names an AiiDA archive's entries have: {@code metadata.json}, {@code db.sqlite3} and
 * {@code repo/<sha256>}. Nothing is ever written under an entry's name, but a name that climbs out of its
 * folder or starts at a root marks a hostile or broken zip, and the archive is refused for it.
 */
final class EntryNames {

    static final String METADATA = "metadata.json";
    static final String DATABASE = "db.sqlite3";
    static final String REPO = "repo/";

    private static final Pattern KEY = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:.*");

    private EntryNames() {}

    /** Refuses a name that is absolute or has a {@code ..} segment (with either slash). */
    static void check(String file, String name) {
        String why = null;
        if (name.isEmpty()) {
            why = "is empty";
        } else if (name.startsWith("/")
                || name.startsWith("\\")
                || DRIVE.matcher(name).matches()) {
            why = "is an absolute path";
        } else if (name.indexOf('\0') >= 0) {
            why = "holds a NUL character";
        } else {
            for (String segment : name.split("[/\\\\]", -1)) {
                if (segment.equals("..")) {
                    why = "climbs out of the archive with '..'";
                    break;
                }
            }
        }
        if (why != null) {
            throw new InvalidArchiveException(file + ": entry '" + printable(name) + "' " + why
                    + "; an AiiDA archive holds only metadata.json, db.sqlite3 and repo/<sha256>");
        }
    }

    /** The key of an object entry {@code repo/<key>}, or {@code null} for any other name. */
    static String objectKey(String name) {
        if (name.startsWith(REPO)
                && KEY.matcher(name).region(REPO.length(), name.length()).matches()) {
            return name.substring(REPO.length());
        }
        return null;
    }

    static boolean isKey(String key) {
        return key != null && KEY.matcher(key).matches();
    }

    private static String printable(String name) {
        StringBuilder out = new StringBuilder();
        name.codePoints().limit(200).forEach(c -> {
            if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return name.length() > 200 ? out + "..." : out.toString();
    }
}
