package dev.cairn.cli.commands.node;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.options.WorkdirCleaning;
import dev.cairn.cli.output.NodeTypeNames;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

@Command(
        name = "delete",
        description = {
            "Delete nodes with everything AiiDA's deletion rules take along: the processes that used a data node"
                    + " and what they made, the callers of a deleted process, and (unless switched off) what a"
                    + " deleted process created or called. Lists what would go and asks first; --force skips the"
                    + " question (needed when standard input is no terminal). A process that has not ended is"
                    + " refused.",
            "With --clean-workdir, the working folders the deleted calculation jobs left on their computers are"
                    + " removed first (as cairn calcjob cleanworkdir); when one cannot be, nothing is deleted.",
            "Example: cairn node delete 42 --dry-run --clean-workdir"
        })
final class NodeDelete implements Callable<Integer> {

    @Mixin
    Session session;

    @Parameters(paramLabel = "REF", arity = "1..*", converter = NodeRef.Converter.class, description = NodeRef.HELP)
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

    @Option(
            names = "--clean-workdir",
            description = "First remove the working folders the deleted calculation jobs left on their computers;"
                    + " delete nothing when one cannot be removed.")
    boolean cleanWorkdir;

    @Override
    public Integer call() {
        CairnClient client = session.client();
        StringBuilder query = new StringBuilder("/api/v1/nodes?");
        for (NodeRef ref : refs) {
            query.append("node=").append(CairnClient.param(ref.resolve(client))).append('&');
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
        List<String> processes = cleanWorkdir ? processes(plan) : List.of();
        if (dryRun) {
            print(out, plan);
            if (cleanWorkdir) {
                List<JsonNode> folders = WorkdirCleaning.clean(client, processes, true);
                WorkdirCleaning.print(folders, out);
                String removed = WorkdirCleaning.folders(folders, "would clean");
                out.note(removed == null ? "no working folder to remove" : removed + " would be removed first");
            }
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
        if (cleanWorkdir) {
            List<JsonNode> cleaned = WorkdirCleaning.clean(client, processes, false);
            long failed = WorkdirCleaning.failed(cleaned);
            if (failed > 0) {
                WorkdirCleaning.print(cleaned, out);
                out.note(failed + " working folder" + (failed == 1 ? "" : "s") + " could not be removed, each says"
                        + " why; nothing deleted (delete without --clean-workdir to keep the folders)");
                return ExitCodes.FAILED;
            }
            String removed = WorkdirCleaning.folders(cleaned, "cleaned");
            out.note(removed == null ? "no working folder to remove" : "removed " + removed);
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

    /**
     * The processes among the nodes a deletion would take: their jobs' working folders go first. The plan
     * lists its first nodes only; a deletion larger than the list is refused rather than leave folders behind.
     */
    private static List<String> processes(JsonNode plan) {
        long count = plan.path("count").asLong();
        if (count > plan.path("nodes").size()) {
            throw CliException.usage("the deletion takes " + count + " nodes, more than the server lists ("
                    + plan.path("nodes").size() + "), so not all of their jobs' folders are known: remove the"
                    + " folders first with cairn calcjob cleanworkdir, then delete without --clean-workdir");
        }
        List<String> processes = new ArrayList<>();
        for (JsonNode node : plan.path("nodes")) {
            if (node.path("node_type").asString().startsWith("process.")) {
                processes.add(node.path("uuid").asString());
            }
        }
        return processes;
    }

    private static void print(Output out, JsonNode plan) {
        if (out.json()) {
            out.print(plan);
            return;
        }
        TextTable table = TextTable.of("UUID", "TYPE", "LABEL");
        for (JsonNode node : plan.path("nodes")) {
            table.row(
                    node.path("uuid").asString(),
                    NodeTypeNames.name(node),
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
                        .append(NodeTypeNames.name(JsonTrees.object().put("node_type", e.getKey()))));
        out.note(count + " node" + (count == 1 ? "" : "s") + " would be deleted (" + types + ")"
                + (count > plan.path("nodes").size()
                        ? "; the first " + plan.path("nodes").size() + " listed"
                        : ""));
    }
}
