package dev.cairn.cli.commands.process;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.client.RemoteNodeFiles;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.ProcessFilterOptions;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.ProcessLines;
import dev.cairn.cli.output.Style;
import dev.cairn.cli.output.TextTable;

/**
 * {@code cairn process list|show|status|report|watch|pause|play|kill|submit|explain-cache}: the
 * processes of a server, what they did and are doing, and launching and steering them.
 */
@Command(
        mixinStandardHelpOptions = true,
        name = "process",
        description = "List, inspect, follow, launch, pause, play and kill processes.",
        subcommands = {
            ProcessCommand.ListProcesses.class,
            ProcessCommand.Show.class,
            ProcessCommand.Status.class,
            ProcessCommand.Report.class,
            ProcessWatch.class,
            ProcessControls.Pause.class,
            ProcessControls.Play.class,
            ProcessControls.Kill.class,
            ProcessSubmit.class,
            ProcessSubmit.ExplainCache.class
        })
public final class ProcessCommand {

    private ProcessCommand() {}

    /** The columns {@code process list --columns} offers, by name, with their header. */
    enum Column {
        ID("ID"),
        UUID("UUID"),
        CTIME("Created"),
        MTIME("Modified"),
        TYPE("Process label"),
        KIND("Kind"),
        LABEL("Label"),
        STATE("Process State"),
        STATUS("Process status"),
        EXIT_STATUS("Exit status"),
        USER("User"),
        CALLER("Caller");

        final String header;

        Column(String header) {
            this.header = header;
        }

        static Column of(String name) {
            String n = name.strip().toLowerCase(Locale.ROOT).replace('-', '_');
            if (n.equals("pk")) {
                return ID;
            }
            for (Column c : values()) {
                if (c.name().toLowerCase(Locale.ROOT).equals(n)) {
                    return c;
                }
            }
            throw CliException.usage("--columns: no column '" + name + "'; the columns are " + String.join(",", names())
                    + " (pk is id)");
        }

        static List<String> names() {
            List<String> names = new ArrayList<>();
            for (Column c : values()) {
                names.add(c.name().toLowerCase(Locale.ROOT));
            }
            return names;
        }

        String cell(JsonNode p, Output out) {
            return switch (this) {
                case ID -> ProcessLines.id(p);
                case UUID -> JsonTrees.text(p, "uuid", "");
                case CTIME -> out.ago(JsonTrees.text(p, "ctime", null));
                case MTIME -> out.ago(JsonTrees.text(p, "mtime", null));
                case TYPE -> JsonTrees.text(p, "entry_point", "");
                case KIND -> JsonTrees.text(p, "kind", "");
                case LABEL -> JsonTrees.text(p, "label", "");
                case STATE -> ProcessLines.state(p, new Style(false));
                case STATUS -> ProcessLines.ended(p) ? "" : JsonTrees.text(p, "process_status", "");
                case EXIT_STATUS -> JsonTrees.text(p, "exit_status", "");
                case USER -> JsonTrees.text(p, "user", "");
                case CALLER -> ProcessLines.shortId(JsonTrees.text(p, "caller", ""));
            };
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "list",
            description = {
                "List processes: those not ended (created, waiting) unless --all or a criterion names an end.",
                "The newest --limit are shown, oldest first (newest at the bottom), then the total."
            })
    static final class ListProcesses implements Runnable {

        private static final int PAGE_MAX = 1000;

        @Mixin
        Session session;

        @Mixin
        ProcessFilterOptions filter;

        @Option(
                names = {"-a", "--all"},
                description = "Every process, ended ones too.")
        boolean all;

        @Option(
                names = {"-l", "--limit"},
                paramLabel = "N",
                defaultValue = "100",
                description = "Show at most N processes, the newest (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(
                names = {"-O", "--order"},
                paramLabel = "FIELD",
                defaultValue = "ctime",
                description = "Order by ctime (launch), mtime (last change) or pk (the same as ctime: launch"
                        + " order) (default: ${DEFAULT-VALUE}).")
        String order;

        @Option(
                names = {"-D", "--direction"},
                paramLabel = "asc|desc",
                defaultValue = "asc",
                description = "asc: the newest last, as a terminal scrolls; desc: the newest first (default:"
                        + " ${DEFAULT-VALUE}).")
        String direction;

        @Option(
                names = {"-c", "--columns"},
                split = ",",
                paramLabel = "COLUMN",
                description = "The table's columns, comma-separated, of: id (pk), uuid, ctime, mtime, type, kind,"
                        + " label, state, status, exit_status, user, caller (default: id,ctime,type,state,status).")
        List<String> columns = List.of("id", "ctime", "type", "state", "status");

        @Override
        public void run() {
            if (limit < 1) {
                throw CliException.usage("--limit must be at least 1, not " + limit);
            }
            String column = switch (order.toLowerCase(Locale.ROOT)) {
                case "ctime", "pk", "id" -> "ctime";
                case "mtime" -> "mtime";
                default -> throw CliException.usage("--order: '" + order + "' is not ctime, mtime or pk");
            };
            boolean ascending = switch (direction.toLowerCase(Locale.ROOT)) {
                case "asc" -> true;
                case "desc" -> false;
                default -> throw CliException.usage("--direction: '" + direction + "' is not asc or desc");
            };
            List<Column> shown = columns.stream().map(Column::of).toList();
            List<String> defaultStates = all || filter.namesAnEnd() ? null : ProcessFilterOptions.ACTIVE;
            Output out = session.output();
            CairnClient client = session.client();
            String query = filter.query(defaultStates, client);

            // the newest `limit` (by the order's field), a page at a time
            List<JsonNode> items = new ArrayList<>();
            long total = -1;
            String cursor = null;
            do {
                int page = Math.min(PAGE_MAX, limit - items.size());
                String path = ProcessEndpoint.PATH + "?order=-" + column + "&limit=" + page
                        + (query.isEmpty() ? "" : "&" + query)
                        + (cursor == null ? "&count=true" : "&cursor=" + CairnClient.param(cursor));
                JsonNode body = client.get(path);
                body.path("items").forEach(items::add);
                if (body.has("total")) {
                    total = body.get("total").asLong();
                }
                cursor = JsonTrees.text(body, "next", null);
            } while (cursor != null && items.size() < limit);
            if (ascending) {
                Collections.reverse(items);
            }

            if (out.json()) {
                ArrayNode array = JsonTrees.MAPPER.createArrayNode();
                items.forEach(array::add);
                out.print(array);
                return;
            }
            TextTable table = TextTable.of(shown.stream().map(c -> c.header).toArray(String[]::new));
            for (JsonNode p : items) {
                table.row(shown.stream().map(c -> c.cell(p, out)).toArray());
            }
            if (!table.isEmpty()) {
                out.print(table);
                out.line("");
            }
            out.line("Total results: " + total);
            if (total > items.size()) {
                out.note("showing the newest " + items.size() + " of " + total + "; --limit N shows more");
            }
            if (defaultStates != null) {
                out.note("only processes not ended (created, waiting); --all shows every one");
            }
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "show",
            description = "Show a process: its type, state, how it ended, inputs and outputs, caller and the"
                    + " processes it called; for a calculation job also its scheduler job and the files it sent"
                    + " and retrieved.")
    static final class Show implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "REF", converter = NodeRef.Converter.class, description = ProcessEndpoint.REF)
        NodeRef ref;

        @Override
        public void run() {
            JsonNode detail = session.client().get(ProcessEndpoint.PATH + "/" + ref.segment(session.client()));
            Output out = session.output();
            if (out.json()) {
                out.print(detail);
                return;
            }
            JsonNode sent = null;
            JsonNode retrieved = null;
            if (detail.hasNonNull("job")) {
                // the files the web page shows: the job's own (what it sent) and its retrieved folder's
                CairnClient client = session.client();
                sent = new RemoteNodeFiles(client, JsonTrees.text(detail.path("process"), "uuid", "")).list("", true);
                JsonNode folder = detail.path("outputs").path("retrieved");
                if (folder.hasNonNull("uuid")) {
                    retrieved = new RemoteNodeFiles(client, folder.path("uuid").asString()).list("", true);
                }
            }
            ProcessDetails.print(detail, sent, retrieved, out);
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "status",
            description = "Show the call tree of a process: every process it called, directly or not, with its state.")
    static final class Status implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "REF", converter = NodeRef.Converter.class, description = ProcessEndpoint.REF)
        NodeRef ref;

        @Option(
                names = {"-m", "--max-depth"},
                paramLabel = "N",
                defaultValue = "-1",
                description = "Show N levels of calls below it at most (default: all).")
        int maxDepth;

        @Override
        public void run() {
            JsonNode tree = session.client().get(ProcessEndpoint.PATH + "/" + ref.segment(session.client()) + "/tree");
            Output out = session.output();
            if (out.json()) {
                out.print(tree);
                return;
            }
            List<String> lines = new ArrayList<>();
            ProcessLines.tree(tree, maxDepth, out.style(), lines);
            lines.forEach(out::line);
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "report",
            description = "Show the log of a process and of the processes it called, oldest first, indented by"
                    + " call depth.")
    static final class Report implements Runnable {

        private static final List<String> LEVELS = List.of("DEBUG", "INFO", "REPORT", "WARNING", "ERROR", "CRITICAL");

        @Mixin
        Session session;

        @Parameters(paramLabel = "REF", converter = NodeRef.Converter.class, description = ProcessEndpoint.REF)
        NodeRef ref;

        @Option(
                names = {"-l", "--levelname"},
                paramLabel = "LEVEL",
                defaultValue = "REPORT",
                description = "The least level shown: DEBUG, INFO, REPORT, WARNING, ERROR, CRITICAL (default:"
                        + " ${DEFAULT-VALUE}).")
        String level;

        @Option(
                names = {"-m", "--max-depth"},
                paramLabel = "N",
                defaultValue = "-1",
                description = "Only the log of processes at most N calls below it (default: all; 0: its own).")
        int maxDepth;

        @Override
        public void run() {
            String least = level.toUpperCase(Locale.ROOT);
            if (!LEVELS.contains(least)) {
                throw CliException.usage("--levelname: '" + level + "' is not one of " + String.join(", ", LEVELS));
            }
            CairnClient client = session.client();
            String base = ProcessEndpoint.PATH + "/" + ref.segment(session.client());
            Map<String, Integer> depths = new HashMap<>();
            depths(client.get(base + "/tree"), 0, depths);
            List<JsonNode> entries = new ArrayList<>();
            String cursor = null;
            do {
                JsonNode page = client.get(base + "/report?level=" + least + "&limit=1000"
                        + (cursor == null ? "" : "&cursor=" + CairnClient.param(cursor)));
                for (JsonNode e : page.path("items")) {
                    int depth = depths.getOrDefault(JsonTrees.text(e, "process", ""), 0);
                    if (maxDepth < 0 || depth <= maxDepth) {
                        entries.add(e);
                    }
                }
                cursor = JsonTrees.text(page, "next", null);
            } while (cursor != null);
            Output out = session.output();
            if (out.json()) {
                ArrayNode array = JsonTrees.MAPPER.createArrayNode();
                entries.forEach(array::add);
                out.print(array);
                return;
            }
            if (entries.isEmpty()) {
                out.note("no log messages at " + least + " or above (--levelname DEBUG shows all)");
                return;
            }
            for (JsonNode e : entries) {
                String process = JsonTrees.text(e, "process", "");
                out.line("  ".repeat(depths.getOrDefault(process, 0))
                        + ProcessDetails.time(JsonTrees.text(e, "time", ""))
                        + " [" + JsonTrees.text(e, "process_pk", ProcessLines.shortId(process)) + " | "
                        + JsonTrees.text(e, "level", "") + "] "
                        + JsonTrees.text(e, "entry_point", "") + ": " + JsonTrees.text(e, "message", ""));
            }
        }

        private static void depths(JsonNode node, int depth, Map<String, Integer> into) {
            into.put(JsonTrees.text(node.path("process"), "uuid", ""), depth);
            for (JsonNode child : node.path("called")) {
                depths(child, depth + 1, into);
            }
        }
    }
}
