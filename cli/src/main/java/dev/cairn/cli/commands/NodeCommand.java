package dev.cairn.cli.commands;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.Json;
import dev.cairn.cli.client.NodeFiles;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.DotGraph;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.Progress;
import dev.cairn.cli.output.Table;

/** {@code cairn node ...}: one node's description, attributes, extras, files and provenance graph. */
@Command(
        name = "node",
        description = "Inspect and annotate nodes of the provenance graph: data and processes.",
        subcommands = {
            NodeCommand.Show.class,
            NodeCommand.Attributes.class,
            NodeCommand.Extras.class,
            NodeCommand.Label.class,
            NodeCommand.Description.class,
            NodeCommand.Delete.class,
            NodeCommand.Rehash.class,
            NodeCommand.Repo.class,
            NodeCommand.Graph.class
        })
public final class NodeCommand {

    static final String REF = "A node: its PK (42), UUID, or a unique prefix of the UUID (at least 4 hex digits).";

    /** How many links of each direction {@code node show} lists. */
    private static final int LINKS_SHOWN = 50;

    static String path(CairnClient client, NodeRef ref) {
        return "/api/v1/nodes/" + CairnClient.segment(ref.resolve(client));
    }

    @Command(
            name = "show",
            description = {
                "Show nodes: type, PK, UUID, label, description, times, owner, computer and their links.",
                "Example: cairn node show 42 0190c1a2"
            })
    static final class Show implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "REF", arity = "1..*", converter = NodeRef.Converter.class, description = REF)
        List<NodeRef> refs;

        @Override
        public void run() {
            CairnClient client = session.client();
            Output out = session.output();
            ArrayNode all = Json.MAPPER.createArrayNode();
            for (NodeRef ref : refs) {
                String base = path(client, ref);
                ObjectNode node = (ObjectNode) client.get(base);
                Long pk = NodeRef.pkOfUuid(client, node.path("uuid").asString());
                node.put("pk", pk);
                JsonNode incoming = client.get(base + "/links/incoming?limit=" + LINKS_SHOWN)
                        .path("items");
                JsonNode outgoing = client.get(base + "/links/outgoing?limit=" + LINKS_SHOWN)
                        .path("items");
                Set<String> linked = new LinkedHashSet<>();
                incoming.forEach(l -> linked.add(l.path("node").path("uuid").asString()));
                outgoing.forEach(l -> linked.add(l.path("node").path("uuid").asString()));
                Map<String, Long> pks = NodeRef.pksOfUuids(client, linked);
                for (JsonNode link : incoming) {
                    ((ObjectNode) link.path("node"))
                            .put("pk", pks.get(link.path("node").path("uuid").asString()));
                }
                for (JsonNode link : outgoing) {
                    ((ObjectNode) link.path("node"))
                            .put("pk", pks.get(link.path("node").path("uuid").asString()));
                }
                node.set("incoming", incoming);
                node.set("outgoing", outgoing);
                all.add(node);
            }
            if (out.json()) {
                out.print(refs.size() == 1 ? all.get(0) : all);
                return;
            }
            boolean first = true;
            for (JsonNode node : all) {
                if (!first) {
                    out.line("");
                }
                first = false;
                print(out, node);
            }
        }

        private static void print(Output out, JsonNode node) {
            Table table = Table.of("PROPERTY", "VALUE");
            table.row("type", typeName(node));
            table.row("pk", node.path("pk").asString());
            table.row("uuid", node.path("uuid").asString());
            table.row("label", node.path("label").asString());
            table.row("description", node.path("description").asString());
            table.row("ctime", out.ago(node.path("ctime").asString()));
            table.row("mtime", out.ago(node.path("mtime").asString()));
            table.row("user", node.path("user").asString());
            JsonNode computer = node.path("computer");
            if (computer.isObject()) {
                table.row("computer", computer.path("label").asString());
            }
            table.row("files", node.path("files").path("count").asInt());
            out.print(table);
            links(
                    out,
                    "Incoming",
                    node.path("incoming"),
                    node.path("links").path("incoming").asLong());
            links(
                    out,
                    "Outgoing",
                    node.path("outgoing"),
                    node.path("links").path("outgoing").asLong());
        }

        private static void links(Output out, String what, JsonNode items, long total) {
            if (total == 0) {
                return;
            }
            out.line("");
            out.line(what + " links (" + total + (total > items.size() ? ", the first " + items.size() : "") + "):");
            Table table = Table.of("LINK", "LABEL", "PK", "TYPE", "NODE LABEL").alignRight("PK");
            for (JsonNode link : items) {
                JsonNode other = link.path("node");
                table.row(
                        link.path("type").asString(),
                        link.path("label").asString(),
                        other.path("pk").asString(),
                        typeName(other),
                        other.path("label").asString());
            }
            out.print(table);
        }
    }

    /** The class part of a node type, with the process type of a process: {@code CalcJobNode (arithmetic.add)}. */
    static String typeName(JsonNode node) {
        String type = node.path("node_type").asString();
        String[] parts = type.split("\\.");
        String name = parts.length == 0 ? type : parts[parts.length - 1];
        JsonNode process = node.path("process_type");
        return process.isString() && !process.asString().isEmpty() ? name + " (" + process.asString() + ")" : name;
    }

    /** Attributes or extras: all, or some keys, as JSON. */
    abstract static class Properties implements Callable<Integer> {

        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "REF", converter = NodeRef.Converter.class, description = REF)
        NodeRef ref;

        @Option(
                names = {"-k", "--keys"},
                paramLabel = "KEY",
                arity = "1..*",
                description = "Only these keys (a missing key is left out).")
        List<String> keys;

        abstract String field();

        @Override
        public Integer call() {
            CairnClient client = session.client();
            String query = keys == null ? "" : "?" + field() + "=" + CairnClient.param(String.join(",", keys));
            JsonNode node = client.get(path(client, ref) + query);
            session.output().print(node.path(field()));
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "attributes",
            description = {
                "Print a node's attributes as JSON (all, or the --keys named).",
                "Example: cairn node" + " attributes 42 --keys value"
            })
    static final class Attributes extends Properties {
        @Override
        String field() {
            return "attributes";
        }
    }

    @Command(
            name = "extras",
            description = {
                "Print a node's extras as JSON (all, or the --keys named).",
                "Example: cairn node extras" + " 42"
            })
    static final class Extras extends Properties {
        @Override
        String field() {
            return "extras";
        }
    }

    /** Label or description: shown, or set when a new value is given. */
    abstract static class Text implements Runnable {

        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "REF", converter = NodeRef.Converter.class, description = REF)
        NodeRef ref;

        @Parameters(
                index = "1",
                paramLabel = "NEW",
                arity = "0..1",
                description = "The new value; shown when left out.")
        String value;

        abstract String field();

        @Override
        public void run() {
            CairnClient client = session.client();
            String path = path(client, ref);
            JsonNode node;
            if (value == null) {
                node = client.get(path + "?attributes=&extras=");
            } else {
                ObjectNode patch = Json.object();
                patch.put(field(), value);
                node = client.patch(path, patch);
                session.output().note(field() + " of " + node.path("uuid").asString() + " set");
            }
            Output out = session.output();
            if (out.json()) {
                ObjectNode json = Json.object();
                json.put("uuid", node.path("uuid").asString());
                json.set(field(), node.path(field()));
                out.print(json);
            } else {
                out.line(node.path(field()).asString());
            }
        }
    }

    @Command(
            name = "label",
            description = {"Show a node's label, or set it.", "Example: cairn node label 42 relaxed"})
    static final class Label extends Text {
        @Override
        String field() {
            return "label";
        }
    }

    @Command(
            name = "description",
            description = {"Show a node's description, or set it.", "Example: cairn node description 42 'the scf run'"})
    static final class Description extends Text {
        @Override
        String field() {
            return "description";
        }
    }

    @Command(
            name = "delete",
            description = {
                "Delete nodes with everything AiiDA's deletion rules take along: the processes that used a data node"
                        + " and what they made, the callers of a deleted process, and (unless switched off) what a"
                        + " deleted process created or called. Lists what would go and asks first; --force skips the"
                        + " question (needed when standard input is no terminal). A process that has not ended is"
                        + " refused.",
                "Example: cairn node delete 42 --dry-run"
            })
    static final class Delete implements Callable<Integer> {

        @Mixin
        Session session;

        @Parameters(paramLabel = "REF", arity = "1..*", converter = NodeRef.Converter.class, description = REF)
        List<NodeRef> refs;

        @Option(
                names = {"-n", "--dry-run"},
                description = "Only list what would be deleted.")
        boolean dryRun;

        @Option(
                names = {"-f", "--force"},
                description = "Do not ask before deleting.")
        boolean force;

        @Option(
                names = "--create-forward",
                negatable = true,
                defaultValue = "true",
                fallbackValue = "true",
                description = "Also delete what a deleted process created (default: on; --no-create-forward keeps it).")
        boolean createForward;

        @Option(
                names = "--call-calc-forward",
                negatable = true,
                defaultValue = "true",
                fallbackValue = "true",
                description = "Also delete the calculations a deleted workflow called (default: on).")
        boolean callCalcForward;

        @Option(
                names = "--call-work-forward",
                negatable = true,
                defaultValue = "true",
                fallbackValue = "true",
                description = "Also delete the workflows a deleted workflow called (default: on).")
        boolean callWorkForward;

        @Override
        public Integer call() {
            CairnClient client = session.client();
            StringBuilder query = new StringBuilder("/api/v1/nodes?");
            for (NodeRef ref : refs) {
                query.append("node=")
                        .append(CairnClient.param(ref.resolve(client)))
                        .append('&');
            }
            if (!createForward) {
                query.append("disable=create_forward&");
            }
            if (!callCalcForward) {
                query.append("disable=call_calc_forward&");
            }
            if (!callWorkForward) {
                query.append("disable=call_work_forward&");
            }
            Output out = session.output();
            JsonNode plan = client.delete(query + "dry_run=true");
            if (dryRun) {
                print(out, plan);
                return ExitCodes.OK;
            }
            long count = plan.path("count").asLong();
            if (!force) {
                if (System.console() == null || !out.terminal().interactive()) {
                    throw CliException.usage("deleting " + count + " node" + (count == 1 ? "" : "s")
                            + " needs --force when standard input is no terminal (--dry-run lists them)");
                }
                print(out, plan);
                String answer = System.console().readLine("Delete these %d nodes? [y/N] ", count);
                if (answer == null || !answer.strip().equalsIgnoreCase("y")) {
                    out.note("nothing deleted");
                    return ExitCodes.FAILED;
                }
            }
            JsonNode done = client.delete(query.substring(0, query.length() - 1));
            if (out.json()) {
                out.print(done);
            } else {
                long deleted = done.path("count").asLong();
                out.note("deleted " + deleted + " node" + (deleted == 1 ? "" : "s") + " and "
                        + done.path("links").asLong() + " links");
            }
            return ExitCodes.OK;
        }

        private static void print(Output out, JsonNode plan) {
            if (out.json()) {
                out.print(plan);
                return;
            }
            Table table = Table.of("UUID", "TYPE", "LABEL");
            for (JsonNode node : plan.path("nodes")) {
                table.row(
                        node.path("uuid").asString(),
                        typeName(node),
                        node.path("label").asString());
            }
            out.print(table);
            long count = plan.path("count").asLong();
            StringBuilder types = new StringBuilder();
            plan.path("by_type")
                    .properties()
                    .forEach(e -> types.append(types.isEmpty() ? "" : ", ")
                            .append(e.getValue().asLong())
                            .append(' ')
                            .append(typeName(Json.object().put("node_type", e.getKey()))));
            out.note(count + " node" + (count == 1 ? "" : "s") + " would be deleted (" + types + ")"
                    + (count > plan.path("nodes").size()
                            ? "; the first " + plan.path("nodes").size() + " listed"
                            : ""));
        }
    }

    @Command(
            name = "rehash",
            description = {
                "Compute the hash caching finds nodes by again, from what is stored, and store it where it differs"
                        + " (after the hash's form changed). --all rehashes every node, inputs before the processes"
                        + " that used them, and asks first unless --force.",
                "Example: cairn node rehash 42 43, cairn node rehash --all --force"
            })
    static final class Rehash implements Callable<Integer> {

        @Mixin
        Session session;

        @Parameters(paramLabel = "REF", arity = "0..*", converter = NodeRef.Converter.class, description = REF)
        List<NodeRef> refs;

        @Option(names = "--all", description = "Every node.")
        boolean all;

        @Option(
                names = {"-f", "--force"},
                description = "Do not ask before rehashing every node.")
        boolean force;

        @Override
        public Integer call() {
            if (all == (refs != null && !refs.isEmpty())) {
                throw CliException.usage("name the nodes to rehash, or give --all (not both)");
            }
            CairnClient client = session.client();
            Output out = session.output();
            ArrayNode results = Json.MAPPER.createArrayNode();
            if (!all) {
                for (NodeRef ref : refs) {
                    results.add(rehash(client, ref.resolve(client)));
                }
            } else {
                long total = count(client);
                if (!force) {
                    if (System.console() == null || !out.terminal().interactive()) {
                        throw CliException.usage("rehashing all " + total + " nodes needs --force when standard input"
                                + " is no terminal");
                    }
                    String answer = System.console().readLine("Rehash all %d nodes? [y/N] ", total);
                    if (answer == null || !answer.strip().equalsIgnoreCase("y")) {
                        out.note("nothing rehashed");
                        return ExitCodes.FAILED;
                    }
                }
                rehashAll(client, out, total, results);
            }
            long changed = 0;
            for (JsonNode result : results) {
                changed += result.path("changed").asBoolean() ? 1 : 0;
            }
            if (out.json()) {
                out.print(results);
            } else {
                if (!all) {
                    for (JsonNode result : results) {
                        out.line(result.path("uuid").asString() + "  "
                                + result.path("hash").asString()
                                + (result.path("changed").asBoolean() ? "  (changed)" : ""));
                    }
                }
                out.note(results.size() + " node" + (results.size() == 1 ? "" : "s") + " rehashed, " + changed
                        + " changed");
            }
            return ExitCodes.OK;
        }

        private static JsonNode rehash(CairnClient client, String node) {
            return client.post("/api/v1/nodes/" + CairnClient.segment(node) + "/rehash", Json.object());
        }

        private static ObjectNode allNodes(boolean count) {
            ObjectNode vertex = Json.object();
            vertex.put("tag", "n");
            vertex.put("entity", "node");
            vertex.putArray("project").add("uuid");
            ObjectNode query = Json.object();
            query.putArray("path").add(vertex);
            if (!count) {
                ObjectNode order = query.putArray("order_by").addObject();
                order.put("tag", "n");
                order.put("field", "id");
                order.put("order", "asc");
            }
            return query;
        }

        private static long count(CairnClient client) {
            return client.post("/api/v1/query?limit=1&count=true", allNodes(true))
                    .path("total")
                    .asLong();
        }

        /** Every node by ascending id (inputs are stored before what used them), streamed. */
        private static void rehashAll(CairnClient client, Output out, long total, ArrayNode results) {
            try (InputStream stream = client.stream(
                            "/api/v1/query/stream", "application/x-ndjson", Json.compact(allNodes(false)));
                    BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
                    Progress progress = out.progress("rehashing", total)) {
                String line;
                while ((line = lines.readLine()) != null) {
                    JsonNode row = Json.parse(line);
                    if (row.path("type").isString()) {
                        throw new CliException(
                                ExitCodes.FAILED, Json.text(row, "detail", "listing nodes failed"), null);
                    }
                    results.add(rehash(client, row.path("n").path("uuid").asString()));
                    progress.advance(1);
                }
            } catch (IOException e) {
                throw new CliException(ExitCodes.UNAVAILABLE, "listing the nodes failed: " + e.getMessage(), null, e);
            }
        }
    }

    /** {@code cairn node repo ls|cat|dump}. */
    @Command(
            name = "repo",
            description = "A node's files (its repository).",
            subcommands = {Repo.Ls.class, Repo.Cat.class, Repo.Dump.class})
    static final class Repo {

        @Command(
                name = "ls",
                description = {
                    "List a folder of a node's files (the top by default).",
                    "Example: cairn node repo ls" + " 42 out"
                })
        static final class Ls implements Runnable {

            @Mixin
            Session session;

            @Parameters(index = "0", paramLabel = "REF", converter = NodeRef.Converter.class, description = REF)
            NodeRef ref;

            @Parameters(
                    index = "1",
                    paramLabel = "PATH",
                    arity = "0..1",
                    description = "A folder; the top when left out.")
            String folder;

            @Option(
                    names = {"-r", "--recursive"},
                    description = "Every file below the folder.")
            boolean recursive;

            @Override
            public void run() {
                CairnClient client = session.client();
                JsonNode listing =
                        new NodeFiles(client, ref.resolve(client)).list(folder == null ? "" : folder, recursive);
                list(session.output(), listing, recursive);
            }
        }

        static void list(Output out, JsonNode listing, boolean recursive) {
            if (out.json()) {
                out.print(listing);
                return;
            }
            for (JsonNode entry : listing.path("entries")) {
                String name = recursive
                        ? entry.path("path").asString()
                        : entry.path("name").asString();
                out.line("directory".equals(entry.path("type").asString()) ? name + "/" : name);
            }
        }

        @Command(
                name = "cat",
                description = {
                    "Write a file of a node to standard output, byte for byte.",
                    "Example: cairn node repo" + " cat 42 aiida.in"
                })
        static final class Cat implements Runnable {

            @Mixin
            Session session;

            @Parameters(index = "0", paramLabel = "REF", converter = NodeRef.Converter.class, description = REF)
            NodeRef ref;

            @Parameters(index = "1", paramLabel = "PATH", description = "The file's path among the node's files.")
            String file;

            @Override
            public void run() {
                CairnClient client = session.client();
                cat(client, ref.resolve(client), file);
            }
        }

        /** Streams a file to the process's standard output (bytes, not text). */
        static void cat(CairnClient client, String node, String file) {
            PrintStream stdout = System.out;
            new NodeFiles(client, node).copy(file, stdout);
            if (stdout.checkError()) {
                throw new CliException(ExitCodes.FAILED, "writing to standard output failed", null);
            }
        }

        @Command(
                name = "dump",
                description = {
                    "Copy all files of a node into a folder (new, or empty).",
                    "Example: cairn node repo" + " dump 42 ./calc-42"
                })
        static final class Dump implements Runnable {

            @Mixin
            Session session;

            @Parameters(index = "0", paramLabel = "REF", converter = NodeRef.Converter.class, description = REF)
            NodeRef ref;

            @Parameters(
                    index = "1",
                    paramLabel = "DEST",
                    description = "The folder to write; must not exist or be empty.")
            Path dest;

            @Override
            public void run() {
                CairnClient client = session.client();
                Path target = session.workingDirectory().resolve(dest);
                List<Path> written = new NodeFiles(client, ref.resolve(client)).dump(target);
                session.output()
                        .note(written.size() + " file" + (written.size() == 1 ? "" : "s") + " written to " + target);
            }
        }
    }

    /** Output formats of {@code node graph}. */
    enum Format {
        dot,
        svg,
        png
    }

    @Command(
            name = "graph",
            description = {
                "Draw the provenance graph around a node: DOT, or SVG and PNG through Graphviz's `dot`.",
                "Example: cairn node graph 42 --ancestor-depth 2 --format svg -o graph.svg"
            })
    static final class Graph implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "REF", converter = NodeRef.Converter.class, description = REF)
        NodeRef ref;

        @Option(
                names = "--ancestor-depth",
                paramLabel = "N",
                defaultValue = "1",
                description = "How many links back to follow (default: ${DEFAULT-VALUE}; 0: none).")
        int ancestorDepth;

        @Option(
                names = "--descendant-depth",
                paramLabel = "N",
                defaultValue = "1",
                description = "How many links forward to follow (default: ${DEFAULT-VALUE}; 0: none).")
        int descendantDepth;

        @Option(
                names = "--link-types",
                paramLabel = "TYPES",
                defaultValue = "all",
                description = "Link types to follow, comma-separated: create, return, input_calc, input_work,"
                        + " call_calc, call_work, or all (default: ${DEFAULT-VALUE}).")
        String linkTypes;

        @Option(
                names = {"-f", "--format"},
                paramLabel = "FORMAT",
                defaultValue = "dot",
                description = "dot, svg or png (svg and png need Graphviz; default: ${DEFAULT-VALUE}).")
        Format format;

        @Option(
                names = {"-o", "--output"},
                paramLabel = "FILE",
                description = "Write here (default: standard output for dot, <uuid>.<format> otherwise).")
        Path output;

        @Override
        public void run() {
            if (ancestorDepth < 0 || descendantDepth < 0) {
                throw CliException.usage("--ancestor-depth and --descendant-depth take 0 or more");
            }
            CairnClient client = session.client();
            String base = path(client, ref);
            JsonNode root = client.get(base + "?attributes=&extras=");
            String rootUuid = root.path("uuid").asString();
            String types = "all".equals(linkTypes) ? "" : "&link_types=" + CairnClient.param(linkTypes);
            Map<String, JsonNode> nodes = new LinkedHashMap<>();
            nodes.put(rootUuid, root);
            String walk = "&link_types=" + CairnClient.param(linkTypes);
            if (ancestorDepth > 0) {
                walk(client, base + "/ancestors?depth=" + ancestorDepth + walk, nodes);
            }
            if (descendantDepth > 0) {
                walk(client, base + "/descendants?depth=" + descendantDepth + walk, nodes);
            }
            Map<String, Long> pks = NodeRef.pksOfUuids(client, nodes.keySet());
            DotGraph graph = new DotGraph();
            nodes.forEach((uuid, node) -> graph.node(
                    uuid, node.path("node_type").asString(), text(node, pks.get(uuid)), uuid.equals(rootUuid)));
            for (String uuid : nodes.keySet()) {
                String url = "/api/v1/nodes/" + uuid + "/links/outgoing?limit=1000" + types;
                for (JsonNode link : client.get(url).path("items")) {
                    String to = link.path("node").path("uuid").asString();
                    if (graph.has(to)) {
                        graph.link(
                                uuid,
                                to,
                                link.path("type").asString(),
                                link.path("label").asString());
                    }
                }
            }
            write(graph.render(), rootUuid);
        }

        /** Adds the nodes of every page of a walk. */
        private static void walk(CairnClient client, String url, Map<String, JsonNode> nodes) {
            String cursor = null;
            do {
                JsonNode page =
                        client.get(url + "&limit=500" + (cursor == null ? "" : "&cursor=" + CairnClient.param(cursor)));
                for (JsonNode node : page.path("items")) {
                    nodes.putIfAbsent(node.path("uuid").asString(), node);
                }
                cursor = page.path("next").isString() ? page.path("next").asString() : null;
            } while (cursor != null);
        }

        private static String text(JsonNode node, Long pk) {
            String label = node.path("label").asString();
            return typeName(node) + "\n"
                    + (pk != null ? "PK " + pk : node.path("uuid").asString()) + (label.isEmpty() ? "" : "\n" + label);
        }

        private void write(String dot, String rootUuid) {
            Output out = session.output();
            if (format == Format.dot) {
                if (output == null) {
                    out.out().print(dot);
                    out.out().flush();
                    return;
                }
                try {
                    Files.writeString(session.workingDirectory().resolve(output), dot, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new CliException(ExitCodes.FAILED, "cannot write " + output + ": " + e.getMessage(), null);
                }
                out.note("wrote " + output);
                return;
            }
            Path file = session.workingDirectory().resolve(output != null ? output : Path.of(rootUuid + "." + format));
            render(dot, file);
            out.note("wrote " + (output != null ? output : file.getFileName()));
        }

        private void render(String dot, Path file) {
            Path graphviz = findDot();
            if (graphviz == null) {
                throw new CliException(
                        ExitCodes.FAILED,
                        "--format " + format + " needs Graphviz's `dot`, which is not on the PATH",
                        "install graphviz (apt install graphviz, brew install graphviz), or use --format dot");
            }
            try {
                Process process = new ProcessBuilder(graphviz.toString(), "-T" + format, "-o", file.toString())
                        .redirectErrorStream(true)
                        .start();
                try (OutputStream in = process.getOutputStream()) {
                    in.write(dot.getBytes(StandardCharsets.UTF_8));
                }
                String said;
                try (InputStream messages = process.getInputStream()) {
                    said = new String(messages.readAllBytes(), StandardCharsets.UTF_8).strip();
                }
                if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
                    process.destroyForcibly();
                    throw new CliException(ExitCodes.FAILED, "Graphviz's dot failed: " + said, null);
                }
            } catch (IOException e) {
                throw new CliException(ExitCodes.FAILED, "running " + graphviz + " failed: " + e.getMessage(), null, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(ExitCodes.INTERRUPTED, "interrupted", null, e);
            }
        }

        private Path findDot() {
            String path = session.env().getOrDefault("PATH", System.getenv("PATH"));
            if (path == null) {
                return null;
            }
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir, "dot");
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
            return null;
        }
    }
}
