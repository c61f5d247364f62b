package dev.cairn.engine.shell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.engine.launch.JsonData;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ListData;

/**
 * One of a shell job's parsers, which need no Java: each reads a retrieved file into an output of
 * its own name. Given in the input {@code parsers} as {@code {"NAME": SPEC}}, SPEC being
 * <ul>
 * <li>{@code {"json": "results.json"}}: the file's JSON as a node, an object a {@code Dict}, an array a
 *     {@code List}, a number an {@code Int} or {@code Float}, a string a {@code Str}, a boolean a {@code Bool};</li>
 * <li>{@code {"regex": "E = (\\S+)", "file": "stdout", "match": "first"}}: the first group of a match (the
 *     whole match when the pattern has no group) as a number, an {@code Int} when it is an integer, else a
 *     {@code Float} (Fortran's {@code 1.0D-05} too); {@code match} is {@code first} (the default), {@code last},
 *     or {@code all} for a {@code List} of every match's number; {@code file} defaults to {@code stdout}.</li>
 * </ul>
 */
sealed interface OutputParser {

    /** The output this parser makes. */
    String name();

    /** The retrieved file it reads. */
    String file();

    /**
     * The output read from the retrieved files under {@code retrieved}.
     *
     * @throws ParseFailure saying what was wrong: the file missing, not JSON, no match, a match that is no number
     */
    Data parse(Path retrieved) throws ParseFailure;

    /** A JSON file read into a node. */
    record JsonFile(String name, String file) implements OutputParser {

        private static final JsonMapper JSON = JsonMapper.builder().build();

        @Override
        public Data parse(Path retrieved) throws ParseFailure {
            JsonNode json;
            try {
                json = JSON.readTree(read(retrieved, file));
            } catch (JacksonException e) {
                throw new ParseFailure(file + " is not JSON: " + e.getOriginalMessage());
            }
            if (json == null || json.isNull() || json.isMissingNode()) {
                throw new ParseFailure(file + " holds JSON null, which is no value");
            }
            try {
                return JsonData.decode(Data.class, json);
            } catch (InvalidInputException e) {
                throw new ParseFailure(file + ": " + e.getMessage());
            }
        }
    }

    /** Numbers a regular expression finds in a file. */
    record RegexNumbers(String name, String file, Pattern pattern, String match) implements OutputParser {

        private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");

        @Override
        public Data parse(Path retrieved) throws ParseFailure {
            Matcher m = pattern.matcher(read(retrieved, file));
            List<Object> numbers = new ArrayList<>();
            while (m.find()) {
                numbers.add(number(m.groupCount() > 0 ? m.group(1) : m.group()));
                if (match.equals("first")) {
                    break;
                }
            }
            if (match.equals("all")) {
                return new ListData(numbers);
            }
            if (numbers.isEmpty()) {
                throw new ParseFailure("no match of /" + pattern.pattern() + "/ in " + file);
            }
            Object n = match.equals("first") ? numbers.getFirst() : numbers.getLast();
            return n instanceof Long l ? new IntData(l) : new FloatData((Double) n);
        }

        private Object number(String text) throws ParseFailure {
            String t = text == null ? "" : text.strip();
            if (INTEGER.matcher(t).matches()) {
                try {
                    return Long.parseLong(t);
                } catch (NumberFormatException e) {
                    // past 64 bits: a float then
                }
            }
            try {
                return Double.parseDouble(t.replace('D', 'e').replace('d', 'e'));
            } catch (NumberFormatException e) {
                throw new ParseFailure(
                        "/" + pattern.pattern() + "/ matched '" + t + "' in " + file + ", which is no number");
            }
        }
    }

    /** The keys a spec may have. */
    Set<String> KEYS = Set.of("json", "regex", "file", "match");

    /**
     * The parser {@code spec} describes, for the output {@code name}.
     *
     * @throws InvalidInputException saying what is wrong with the spec
     */
    static OutputParser of(String name, Object spec) {
        String at = "parser '" + name + "'";
        if (!(spec instanceof Map<?, ?> map)) {
            throw new InvalidInputException(at + " must be an object such as {\"json\": \"results.json\"} or"
                    + " {\"regex\": \"E = (\\\\S+)\", \"file\": \"stdout\"}, not " + spec);
        }
        for (Object key : map.keySet()) {
            if (!KEYS.contains(key)) {
                throw new InvalidInputException(
                        at + ": unknown key '" + key + "'; a parser takes json, or regex with" + " file and match");
            }
        }
        boolean json = map.containsKey("json");
        boolean regex = map.containsKey("regex");
        if (json == regex) {
            throw new InvalidInputException(
                    at + " needs exactly one of 'json' (a file to read) and 'regex' (a pattern)");
        }
        if (json) {
            if (map.containsKey("file") || map.containsKey("match")) {
                throw new InvalidInputException(at + ": a json parser takes only 'json', the file to read");
            }
            return new JsonFile(name, ShellInputs.relativePath(at + " 'json'", map.get("json")));
        }
        String file = map.containsKey("file") ? ShellInputs.relativePath(at + " 'file'", map.get("file")) : "stdout";
        Object match = map.containsKey("match") ? map.get("match") : "first";
        if (!List.of("first", "last", "all").contains(match)) {
            throw new InvalidInputException(at + ": 'match' is first, last or all, not " + match);
        }
        if (!(map.get("regex") instanceof String pattern) || pattern.isEmpty()) {
            throw new InvalidInputException(at + ": 'regex' must be a non-empty string");
        }
        try {
            return new RegexNumbers(name, file, Pattern.compile(pattern, Pattern.MULTILINE), (String) match);
        } catch (PatternSyntaxException e) {
            throw new InvalidInputException(at + ": 'regex' is not a regular expression: " + e.getDescription()
                    + " near character " + (e.getIndex() + 1));
        }
    }

    private static String read(Path retrieved, String file) throws ParseFailure {
        try {
            return Files.readString(retrieved.resolve(file));
        } catch (NoSuchFileException e) {
            throw new ParseFailure(file + " was not retrieved: the command did not write it");
        } catch (IOException e) {
            throw new ParseFailure(file + " could not be read: " + e.getMessage());
        }
    }
}
