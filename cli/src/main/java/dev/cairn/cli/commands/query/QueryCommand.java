package dev.cairn.cli.commands.query;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;
import dev.cairn.cli.query.QueryExpression;

/** {@code cairn query}: rows of a query of the provenance graph, streamed from the server. */
@Command(
        name = "query",
        description = {
            "Query the provenance graph: a short expression, or the query builder's JSON from a file.",
            "Expression: " + QueryExpression.GRAMMAR + ".",
            "Rows stream from the server (POST /api/v1/query/stream): --json and --csv print them as they come.",
            "Examples:",
            "  cairn query 'Int where attributes.value > 3' --project id,uuid,attributes.value",
            "  cairn query \"CalcJobNode where label like 'relax%%' and ctime >= 2026-01-01\" --csv",
            "  cairn query --file query.json --json"
        })
public final class QueryCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {
        @Parameters(paramLabel = "EXPRESSION", description = "The query as an expression (see above).")
        String expression;

        @Option(
                names = "--file",
                paramLabel = "FILE",
                description = "The query builder's JSON ({\"path\": [...], ...}) from FILE, or - for standard input.")
        String file;
    }

    @Option(
            names = "--project",
            paramLabel = "FIELDS",
            defaultValue = "id,uuid,node_type,label,ctime",
            description =
                    "The fields of each row of an expression's nodes, comma-separated (default: ${DEFAULT-VALUE}).")
    String project;

    @Option(names = "--limit", paramLabel = "N", description = "At most N rows.")
    Long limit;

    @Option(names = "--csv", description = "Print comma-separated values with a header line.")
    boolean csv;

    @Override
    public Integer call() {
        if (limit != null && limit < 0) {
            throw CliException.usage("--limit takes 0 or more");
        }
        JsonNode query = source.expression != null
                ? QueryExpression.parse(source.expression, QueryExpression.projections(project), limit)
                : readFile();
        if (source.file != null && limit != null) {
            ((ObjectNode) query).put("limit", limit);
        }
        Output out = session.output();
        if (out.json() && csv) {
            throw CliException.usage("--json and --csv: choose one");
        }
        try (InputStream stream = session.client().stream(
                        "/api/v1/query/stream", "application/x-ndjson", JsonTrees.compact(query));
                BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            Rows rows = out.json() ? new JsonRows(out.out()) : csv ? new CsvRows(out.out()) : new TableRows(out);
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode row = JsonTrees.parse(line);
                if (row.path("type").isString()) {
                    rows.end();
                    throw new CliException(ExitCodes.FAILED, JsonTrees.text(row, "detail", "the query failed"), null);
                }
                rows.add(row);
            }
            rows.end();
            return ExitCodes.OK;
        } catch (IOException e) {
            throw new CliException(ExitCodes.UNAVAILABLE, "reading the rows failed: " + e.getMessage(), null, e);
        }
    }

    private JsonNode readFile() {
        String text;
        try {
            text = source.file.equals("-")
                    ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
                    : Files.readString(
                            session.workingDirectory().resolve(Path.of(source.file)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw CliException.usage("--file: cannot read " + source.file + ": " + e.getMessage());
        }
        try {
            JsonNode query = JsonTrees.parse(text);
            if (!query.isObject() || !query.has("path")) {
                throw CliException.usage("--file " + source.file + ": not a query: the JSON needs a \"path\"");
            }
            return query;
        } catch (JacksonException e) {
            throw CliException.usage("--file " + source.file + ": not JSON: " + e.getOriginalMessage());
        }
    }

    /** The cells of a row, by column: "key" for one tag, "tag.key" for several. */
    static List<Map.Entry<String, JsonNode>> cells(JsonNode row) {
        List<Map.Entry<String, JsonNode>> cells = new ArrayList<>();
        boolean one = row.size() == 1;
        for (Map.Entry<String, JsonNode> tag : row.properties()) {
            for (Map.Entry<String, JsonNode> value : tag.getValue().properties()) {
                cells.add(Map.entry(one ? value.getKey() : tag.getKey() + "." + value.getKey(), value.getValue()));
            }
        }
        return cells;
    }

    static String text(JsonNode value) {
        return value == null || value.isNull() ? "" : value.isValueNode() ? value.asString() : JsonTrees.compact(value);
    }

    /** Where rows go. */
    interface Rows {
        void add(JsonNode row);

        void end();
    }

    /** A JSON array written as rows come, one row per line. */
    static final class JsonRows implements Rows {
        private final PrintWriter out;
        private boolean first = true;
        private boolean ended;

        JsonRows(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void add(JsonNode row) {
            out.print(first ? "[\n  " : ",\n  ");
            out.print(JsonTrees.compact(row));
            first = false;
        }

        @Override
        public void end() {
            if (!ended) {
                out.println(first ? "[]" : "\n]");
                out.flush();
                ended = true;
            }
        }
    }

    /** RFC 4180 CSV, the header from the first row. */
    static final class CsvRows implements Rows {
        private final PrintWriter out;
        private boolean first = true;

        CsvRows(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void add(JsonNode row) {
            List<Map.Entry<String, JsonNode>> cells = cells(row);
            if (first) {
                out.println(String.join(
                        ",", cells.stream().map(c -> csv(c.getKey())).toList()));
                first = false;
            }
            out.println(String.join(
                    ",", cells.stream().map(c -> csv(text(c.getValue()))).toList()));
        }

        @Override
        public void end() {
            out.flush();
        }

        static String csv(String text) {
            return text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r")
                    ? "\"" + text.replace("\"", "\"\"") + "\""
                    : text;
        }
    }

    /** A table, which needs every row to size its columns; times as "3 min ago". */
    static final class TableRows implements Rows {
        private final Output out;
        private TextTable table;

        TableRows(Output out) {
            this.out = out;
        }

        @Override
        public void add(JsonNode row) {
            List<Map.Entry<String, JsonNode>> cells = cells(row);
            if (table == null) {
                table = TextTable.of(cells.stream()
                        .map(c -> c.getKey().toUpperCase(Locale.ROOT))
                        .toArray(String[]::new));
            }
            table.row(cells.stream()
                    .map(c -> c.getKey().endsWith("time") && c.getValue().isString()
                            ? out.ago(c.getValue().asString())
                            : text(c.getValue()))
                    .toArray());
        }

        @Override
        public void end() {
            if (table == null) {
                out.note("no rows");
                return;
            }
            out.print(table);
            table = null;
        }
    }
}
