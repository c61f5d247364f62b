package dev.cairn.cli.commands.storage;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.Progress;
import dev.cairn.cli.output.TextTable;

/** {@code cairn storage index add|list|drop}: indexes on hot attributes of the nodes. */
@Command(
        name = "index",
        description = {
            "Indexes on hot attributes of the nodes, so that queries filtering on them (energy below a bound, a"
                    + " formula equal to a name) read an index instead of every node.",
            "A number index serves ==, in, <, <=, >, >= with numbers; a string index the same with strings."
        },
        subcommands = {
            StorageIndexCommand.Add.class,
            StorageIndexCommand.ListIndexes.class,
            StorageIndexCommand.Drop.class
        })
final class StorageIndexCommand {

    private static final String PATH = "/api/v1/storage/attribute-indexes";

    private StorageIndexCommand() {}

    @Command(
            name = "add",
            description = "Build an index on an attribute while the server runs (writers are not blocked); an index"
                    + " left invalid by a failed build is built again.")
    static final class Add implements Runnable {

        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "KEY", description = "The attribute's path: energy, cell.0.0.")
        String key;

        @Option(
                names = "--type",
                required = true,
                paramLabel = "number|string",
                description = "Which of its values to index.")
        String type;

        @Override
        public void run() {
            ObjectNode body = JsonTrees.object();
            body.put("key", key);
            body.put("type", type);
            JsonNode index = session.client().post(PATH, body);
            Output out = session.output();
            if (out.json()) {
                out.print(index);
                return;
            }
            out.line(describe(index));
        }
    }

    @Command(name = "list", description = "The declared attribute indexes, their state and size.")
    static final class ListIndexes implements Runnable {

        @Mixin
        Session session;

        @Override
        public void run() {
            JsonNode items = session.client().get(PATH).get("items");
            Output out = session.output();
            if (out.json()) {
                out.print(items);
                return;
            }
            TextTable t = TextTable.of("KEY", "TYPE", "STATE", "SIZE", "NAME").alignRight("SIZE");
            items.forEach(i -> t.row(
                    JsonTrees.text(i, "key", "?"),
                    i.get("type").asString(),
                    i.get("state").asString(),
                    Progress.size(i.get("bytes").asLong()),
                    i.get("name").asString()));
            out.print(t);
        }
    }

    @Command(name = "drop", description = "Drop an attribute index (writers are not blocked).")
    static final class Drop implements Runnable {

        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "KEY", description = "The attribute's path.")
        String key;

        @Option(names = "--type", required = true, paramLabel = "number|string", description = "The index's type.")
        String type;

        @Override
        public void run() {
            session.client().delete(PATH + "?key=" + CairnClient.param(key) + "&type=" + CairnClient.param(type));
            session.output().line("dropped the " + type + " index on attribute " + key);
        }
    }

    private static String describe(JsonNode index) {
        return index.get("state").asString() + ": " + index.get("type").asString() + " index on attribute "
                + JsonTrees.text(index, "key", "?") + " (" + index.get("name").asString() + ", "
                + Progress.size(index.get("bytes").asLong()) + ")";
    }
}
