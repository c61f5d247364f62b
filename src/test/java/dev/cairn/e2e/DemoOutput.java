package dev.cairn.e2e;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The demo's report in a server's output: the rows of its table and its curl commands. */
public final class DemoOutput {

    /** The end of the report. */
    public static final String END = "Serving until Ctrl-C";

    /** One row: {@code arithmetic.add_multiply(x=2, y=3, z=4)  finished  0  20  0.06 s  ran  <uuid>}. */
    record Row(String process, String state, String exit, String result, String cache, String uuid) {}

    private static final Pattern ROW = Pattern.compile(
            "^  (\\S+\\(.*\\)(?:, use_cache)?)\\s+(\\w+)\\s+(\\S+)\\s+(\\S+)\\s+[\\d.]+ s\\s+(ran|cached)\\s+([0-9a-f-]{36})$");

    private DemoOutput() {}

    static List<Row> rows(String output) {
        return output.lines()
                .map(ROW::matcher)
                .filter(Matcher::matches)
                .map(m -> new Row(m.group(1), m.group(2), m.group(3), m.group(4), m.group(5), m.group(6)))
                .toList();
    }

    static List<String> curlCommands(String output) {
        return output.lines()
                .filter(l -> l.startsWith("  curl "))
                .map(String::strip)
                .toList();
    }
}
