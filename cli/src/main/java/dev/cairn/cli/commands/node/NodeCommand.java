package dev.cairn.cli.commands.node;

import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.NodeTypeNames;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

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
            NodeDelete.class,
            NodeRehash.class,
            NodeRepo.class,
            NodeGraph.class
        })
public final class NodeCommand {

    /** How many links of each direction {@code node show} lists. */
    private static final int LINKS_SHOWN = 50;

    @Command(
            name = "show",
            description = {
                "Show nodes: type, PK, UUID, label, description, times, owner, computer and their links.",
                "Example: cairn node show 42 0190c1a2"
            })
    static final class Show implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "REF", arity = "1..*", converter = NodeRef.Converter.class, description = NodeRef.HELP)
        List<NodeRef> refs;

        @Override
        public void run() {
            CairnClient client = session.client();
            Output out = session.output();
            ArrayNode all = JsonTrees.MAPPER.createArrayNode();
            for (NodeRef ref : refs) {
                String base = ref.path(client);
                ObjectNode node = (ObjectNode) client.get(base);
                JsonNode incoming = client.get(base + "/links/incoming?limit=" + LINKS_SHOWN)
                        .path("items");
                JsonNode outgoing = client.get(base + "/links/outgoing?limit=" + LINKS_SHOWN)
                        .path("items");
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
            TextTable table = TextTable.of("PROPERTY", "VALUE");
            table.row("type", NodeTypeNames.name(node));
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
            TextTable table =
                    TextTable.of("LINK", "LABEL", "PK", "TYPE", "NODE LABEL").alignRight("PK");
            for (JsonNode link : items) {
                JsonNode other = link.path("node");
                table.row(
                        link.path("type").asString(),
                        link.path("label").asString(),
                        other.path("pk").asString(),
                        NodeTypeNames.name(other),
                        other.path("label").asString());
            }
            out.print(table);
        }
    }

    /** Attributes or extras: all, or some keys, as JSON. */
    abstract static class Properties implements Callable<Integer> {

        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "REF", converter = NodeRef.Converter.class, description = NodeRef.HELP)
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
            JsonNode node = client.get(ref.path(client) + query);
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

        @Parameters(index = "0", paramLabel = "REF", converter = NodeRef.Converter.class, description = NodeRef.HELP)
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
            String path = ref.path(client);
            JsonNode node;
            if (value == null) {
                node = client.get(path + "?attributes=&extras=");
            } else {
                ObjectNode patch = JsonTrees.object();
                patch.put(field(), value);
                node = client.patch(path, patch);
                session.output().note(field() + " of " + node.path("uuid").asString() + " set");
            }
            Output out = session.output();
            if (out.json()) {
                ObjectNode json = JsonTrees.object();
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
}
