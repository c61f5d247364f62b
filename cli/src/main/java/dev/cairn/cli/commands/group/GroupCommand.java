package dev.cairn.cli.commands.group;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.Prompts;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

/** {@code cairn group ...}: named sets of nodes, as verdi group. */
@Command(
        name = "group",
        description = "Named sets of nodes: create, list, show, add and remove nodes, delete.",
        subcommands = {
            GroupCommand.Create.class,
            GroupCommand.ListGroups.class,
            GroupCommand.Show.class,
            GroupCommand.Add.class,
            GroupCommand.Remove.class,
            GroupCommand.Delete.class
        })
public final class GroupCommand {

    static final String GROUP = "The group's label or uuid.";

    static String path(String group) {
        return "/api/v1/groups/" + CairnClient.segment(group);
    }

    /** Every page of a listing that pages with 'next', as one array. */
    static ArrayNode all(CairnClient client, String path) {
        ArrayNode items = JsonTrees.MAPPER.createArrayNode();
        String cursor = null;
        String join = path.contains("?") ? "&" : "?";
        do {
            JsonNode page = client.get(
                    path + join + "limit=500" + (cursor == null ? "" : "&cursor=" + CairnClient.param(cursor)));
            page.path("items").forEach(items::add);
            cursor = JsonTrees.text(page, "next", null);
        } while (cursor != null);
        return items;
    }

    @Command(name = "create", description = "Create an empty group.")
    static final class Create implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "LABEL", description = "A label no other group has.")
        String label;

        @Option(
                names = {"-D", "--description"},
                paramLabel = "TEXT",
                description = "Free text.")
        String description;

        @Override
        public void run() {
            ObjectNode body = JsonTrees.object().put("label", label);
            if (description != null) {
                body.put("description", description);
            }
            JsonNode group = session.client().post("/api/v1/groups", body);
            Output out = session.output();
            if (out.json()) {
                out.print(group);
            } else {
                out.line("group '" + group.path("label").asString() + "' created ("
                        + group.path("uuid").asString() + ")");
            }
        }
    }

    @Command(name = "list", description = "List the groups, by label, with how many nodes each holds.")
    static final class ListGroups implements Runnable {

        @Mixin
        Session session;

        @Override
        public void run() {
            ArrayNode groups = all(session.client(), "/api/v1/groups");
            Output out = session.output();
            if (out.json()) {
                out.print(groups);
                return;
            }
            if (groups.isEmpty()) {
                out.note("no groups; make one: cairn group create LABEL");
                return;
            }
            TextTable table = TextTable.of("LABEL", "NODES", "USER", "CREATED", "DESCRIPTION")
                    .alignRight("NODES");
            for (JsonNode g : groups) {
                table.row(
                        g.path("label").asString(),
                        g.path("nodes").asLong(),
                        JsonTrees.text(g, "user", ""),
                        out.ago(JsonTrees.text(g, "time", null)),
                        JsonTrees.text(g, "description", ""));
            }
            out.print(table);
        }
    }

    @Command(name = "show", description = "Show a group and its nodes.")
    static final class Show implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "GROUP", description = GROUP)
        String group;

        @Override
        public void run() {
            JsonNode g = session.client().get(path(group));
            ArrayNode members = all(session.client(), path(group) + "/nodes");
            Output out = session.output();
            if (out.json()) {
                ObjectNode json = ((ObjectNode) g).deepCopy();
                json.set("members", members);
                out.print(json);
                return;
            }
            out.line("label:        " + g.path("label").asString());
            out.line("uuid:         " + g.path("uuid").asString());
            out.line("description:  " + JsonTrees.text(g, "description", ""));
            out.line("user:         " + JsonTrees.text(g, "user", ""));
            out.line("created:      " + out.ago(JsonTrees.text(g, "time", null)));
            out.line("nodes:        " + g.path("nodes").asLong());
            if (members.isEmpty()) {
                return;
            }
            out.line("");
            TextTable table = TextTable.of("UUID", "TYPE", "LABEL", "CREATED");
            for (JsonNode m : members) {
                String type = JsonTrees.text(m, "processType", null);
                table.row(
                        m.path("uuid").asString(),
                        type != null ? type : m.path("nodeType").asString(),
                        JsonTrees.text(m, "label", ""),
                        out.ago(JsonTrees.text(m, "ctime", null)));
            }
            out.print(table);
        }
    }

    /** Add and remove differ only in the field of the change. */
    abstract static class Change implements Runnable {

        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "GROUP", description = GROUP)
        String group;

        @Parameters(
                index = "1..*",
                arity = "1..*",
                paramLabel = "NODE",
                description = "Nodes by uuid or a unique prefix of it (at least 4 hex digits).")
        List<String> nodes;

        abstract String field();

        @Override
        public void run() {
            Set<String> uuids = new LinkedHashSet<>();
            for (String node : nodes) {
                uuids.add(session.client()
                        .get("/api/v1/nodes/" + CairnClient.segment(node) + "?attributes=&extras=")
                        .path("uuid")
                        .asString());
            }
            ObjectNode body = JsonTrees.object();
            ArrayNode list = body.putArray(field());
            uuids.forEach(list::add);
            JsonNode changed = session.client().post(path(group) + "/nodes", body);
            Output out = session.output();
            if (out.json()) {
                out.print(changed);
            } else {
                long count = changed.path(field().equals("add") ? "added" : "removed")
                        .asLong();
                out.line((field().equals("add") ? "added " : "removed ") + count + " node" + (count == 1 ? "" : "s")
                        + (field().equals("add") ? " to" : " from") + " group '" + group + "' (now "
                        + changed.path("nodes").asLong() + ")");
            }
        }
    }

    @Command(name = "add", description = "Add nodes to a group (members already in it stay once).")
    static final class Add extends Change {
        @Override
        String field() {
            return "add";
        }
    }

    @Command(name = "remove", description = "Remove nodes from a group; the nodes stay.")
    static final class Remove extends Change {
        @Override
        String field() {
            return "remove";
        }
    }

    @Command(
            name = "delete",
            description = {"Delete a group; its nodes stay.", "Asks first on a terminal; elsewhere needs --force."})
    static final class Delete implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "GROUP", description = GROUP)
        String group;

        @Option(
                names = {"-f", "--force"},
                description = "Do not ask.")
        boolean force;

        @Override
        public void run() {
            Output out = session.output();
            JsonNode g = session.client().get(path(group));
            long nodes = g.path("nodes").asLong();
            String question = "delete group '" + g.path("label").asString() + "' (" + nodes + " node"
                    + (nodes == 1 ? "" : "s") + "; the nodes stay)";
            if (!Prompts.of(true, out.err()).confirm(question, force)) {
                out.note("nothing deleted");
                return;
            }
            session.client().delete(path(g.path("uuid").asString()));
            out.note("deleted group '" + g.path("label").asString() + "'");
        }
    }
}
