package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads and writes {@code config.json}: a flat JSON object of strings, numbers and booleans. A parser of
 * our own keeps the object store free of dependencies beyond sqlite-jdbc and zstd.
 */
final class ConfigFile {

    static final String NAME = "config.json";

    private ConfigFile() {}

    static void write(Path folder, ContainerConfig config) throws IOException {
        String json = json(config);
        // Written whole to a sibling file and moved in place, so a crash never leaves half a config.
        Path tmp = folder.resolve(NAME + ".tmp");
        Files.writeString(tmp, json, StandardCharsets.UTF_8);
        Durability.fsync(tmp);
        Files.move(tmp, folder.resolve(NAME), StandardCopyOption.ATOMIC_MOVE);
        Durability.fsyncDirectory(folder);
    }

    static String json(ContainerConfig config) {
        return "{\n"
                + "  \"formatVersion\": " + ContainerConfig.FORMAT_VERSION + ",\n"
                + "  \"containerId\": \"" + config.containerId() + "\",\n"
                + "  \"hashAlgorithm\": \"" + ContainerConfig.HASH_ALGORITHM + "\",\n"
                + "  \"loosePrefixLength\": " + ContainerConfig.LOOSE_PREFIX_LENGTH + ",\n"
                + "  \"packSizeTarget\": " + config.packSizeTarget() + ",\n"
                + "  \"packCompression\": \"" + config.packCompression().name().toLowerCase() + "\",\n"
                + "  \"syncPacks\": " + config.syncPacks() + ",\n"
                + "  \"readGapLimit\": " + config.readGapLimit() + ",\n"
                + "  \"readBlockSize\": " + config.readBlockSize() + "\n"
                + "}\n";
    }

    static ContainerConfig read(Path folder) throws IOException {
        Path file = folder.resolve(NAME);
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new NotAContainerException(folder, "it has no " + NAME);
        }
        return parse(text, folder.toString());
    }

    /** The settings in the text of a {@code config.json}; {@code folder} names the container in messages. */
    static ContainerConfig parse(String text, String folder) throws IOException {
        Map<String, Object> values;
        try {
            values = parse(text);
        } catch (IllegalArgumentException e) {
            throw new NotAContainerException(folder, NAME + " is not valid: " + e.getMessage());
        }
        Object version = values.get("formatVersion");
        if (!(version instanceof Long v)) {
            throw new NotAContainerException(folder, NAME + " has no formatVersion");
        }
        if (v != ContainerConfig.FORMAT_VERSION) {
            throw new UnsupportedContainerException(
                    folder,
                    "its format version is " + v + " and this version of Cairn reads format "
                            + ContainerConfig.FORMAT_VERSION + " only");
        }
        if (!ContainerConfig.HASH_ALGORITHM.equals(values.get("hashAlgorithm"))) {
            throw new UnsupportedContainerException(
                    folder,
                    "hash algorithm " + values.get("hashAlgorithm") + " is not supported (only "
                            + ContainerConfig.HASH_ALGORITHM + ")");
        }
        if (!Long.valueOf(ContainerConfig.LOOSE_PREFIX_LENGTH).equals(values.get("loosePrefixLength"))) {
            throw new UnsupportedContainerException(
                    folder,
                    "loose prefix length " + values.get("loosePrefixLength") + " is not supported (only "
                            + ContainerConfig.LOOSE_PREFIX_LENGTH + ")");
        }
        try {
            return new ContainerConfig(
                    (String) values.get("containerId"),
                    (Long) values.get("packSizeTarget"),
                    Compression.parse((String) values.get("packCompression")),
                    (Boolean) values.get("syncPacks"),
                    Math.toIntExact((Long) values.get("readGapLimit")),
                    Math.toIntExact((Long) values.get("readBlockSize")));
        } catch (RuntimeException e) {
            throw new NotAContainerException(folder, NAME + " has a missing or invalid setting: " + e.getMessage());
        }
    }

    /** Parses a flat JSON object; values become String, Long or Boolean. */
    static Map<String, Object> parse(String text) {
        Map<String, Object> out = new LinkedHashMap<>();
        Cursor c = new Cursor(text);
        c.expect('{');
        if (c.peek() == '}') {
            c.pos++;
            c.end();
            return out;
        }
        do {
            String key = c.string();
            c.expect(':');
            out.put(key, c.value());
        } while (c.comma());
        c.expect('}');
        c.end();
        return out;
    }

    private static final class Cursor {
        private final String s;
        private int pos;

        Cursor(String s) {
            this.s = s;
        }

        char peek() {
            skipSpace();
            if (pos >= s.length()) {
                throw new IllegalArgumentException("unexpected end of text");
            }
            return s.charAt(pos);
        }

        void expect(char ch) {
            if (peek() != ch) {
                throw new IllegalArgumentException("expected '" + ch + "' at character " + pos);
            }
            pos++;
        }

        boolean comma() {
            if (peek() == ',') {
                pos++;
                return true;
            }
            return false;
        }

        void end() {
            skipSpace();
            if (pos != s.length()) {
                throw new IllegalArgumentException("text after the closing brace at character " + pos);
            }
        }

        String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (pos < s.length() && s.charAt(pos) != '"') {
                char ch = s.charAt(pos++);
                if (ch == '\\') {
                    throw new IllegalArgumentException("escapes are not used in " + NAME);
                }
                b.append(ch);
            }
            expect('"');
            return b.toString();
        }

        Object value() {
            char ch = peek();
            if (ch == '"') {
                return string();
            }
            if (s.startsWith("true", pos)) {
                pos += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("false", pos)) {
                pos += 5;
                return Boolean.FALSE;
            }
            int start = pos;
            if (ch == '-') {
                pos++;
            }
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                pos++;
            }
            if (start == pos) {
                throw new IllegalArgumentException("unexpected '" + ch + "' at character " + pos);
            }
            return Long.parseLong(s.substring(start, pos));
        }

        private void skipSpace() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }
    }
}
