package dev.cairn.cli.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;

/**
 * The YAML (or JSON) files that {@code computer setup --config}, {@code computer configure --config} and
 * {@code code create --config} read and {@code computer export} / {@code code export} write: one mapping of
 * fields, each checked against the fields the command knows, so a misspelt field is named rather than
 * ignored. The YAML classes load only here, when a command reads or writes such a file.
 */
public final class ConfigFiles {

    private ConfigFiles() {}

    /**
     * The file's fields; a usage error naming the file when it cannot be read or parsed, is not a mapping,
     * or has a field not in {@code fields}.
     */
    public static ObjectNode read(Path file, Collection<String> fields) {
        ObjectNode fieldsOfFile = mapping(file, "--config");
        for (String name : fieldsOfFile.propertyNames()) {
            if (!fields.contains(name)) {
                throw CliException.usage(
                        file + ": unknown field '" + name + "'; the fields are " + String.join(", ", fields));
            }
        }
        return fieldsOfFile;
    }

    /**
     * The mapping a file holds: JSON when its name ends in {@code .json}, else YAML (which JSON is a part
     * of); an empty file is an empty mapping. A usage error naming {@code option} and the file when it
     * cannot be read or parsed, or holds something else than a mapping.
     */
    public static ObjectNode mapping(Path file, String option) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw CliException.usage(option + ": cannot read " + file + ": " + e.getMessage());
        }
        boolean json = file.toString().toLowerCase(Locale.ROOT).endsWith(".json");
        JsonNode tree;
        try {
            tree = json ? JsonTrees.parse(text) : yaml().readTree(text);
        } catch (JacksonException e) {
            throw CliException.usage(
                    option + " " + file + " is not valid " + (json ? "JSON" : "YAML") + ": " + e.getOriginalMessage());
        }
        if (tree == null || tree.isMissingNode() || tree.isNull()) {
            return JsonTrees.object();
        }
        if (!(tree instanceof ObjectNode mapping)) {
            String kind = tree.getNodeType().name().toLowerCase(Locale.ROOT);
            throw CliException.usage(option + " " + file + " must hold a mapping (name: value), not "
                    + (kind.startsWith("a") ? "an " : "a ") + kind);
        }
        return mapping;
    }

    /** The fields as YAML, in their order, without the document marker. */
    public static String yaml(ObjectNode fields) {
        return yaml().writeValueAsString(fields);
    }

    /** Writes YAML to the file, or returns it for standard output when there is no file. */
    public static void write(String text, Path file) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw CliException.usage("cannot write " + file + ": " + e.getMessage());
        }
    }

    private static YAMLMapper yaml() {
        return YAMLMapper.builder()
                .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
                .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
                .build();
    }
}
