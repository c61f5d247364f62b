package dev.cairn.cli.commands.calcjob;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.ProcessFilterOptions;
import dev.cairn.cli.options.Prompts;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.options.WorkdirCleaning;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.ProcessLines;

/**
 * {@code cairn calcjob cleanworkdir}: removes the working folders calculation jobs left on their computers,
 * for the jobs named, the jobs the workflows named called, or those of every ended process the filter
 * options match. The server says first what it would remove; the command asks, then removes.
 */
@Command(
        mixinStandardHelpOptions = true,
        name = "cleanworkdir",
        description = {
            "Remove the working folders calculation jobs left on their computers (scratch space): of the jobs named,"
                    + " of every job the workflows named called at any depth, or with --all of the ended processes"
                    + " the filter options match.",
            "A job still running, or called by a process still running, is left alone, and so is one cleaned"
                    + " before. Each removed folder's remote_folder gets the extra cleaned=true, and its jobs stop"
                    + " serving as cache sources. Asks first, saying how many folders, unless --force.",
            "Example: cairn calcjob cleanworkdir --all --until 2026-10-01 --type quantumespresso.*"
        })
final class CleanWorkdir implements Callable<Integer> {

    @Mixin
    Session session;

    @Parameters(
            paramLabel = "REF",
            arity = "0..*",
            converter = NodeRef.Converter.class,
            description = "Calculation jobs or workflows: PKs, uuids or prefixes of uuids.")
    List<NodeRef> refs = new ArrayList<>();

    @Option(
            names = {"-a", "--all"},
            description = "Every ended process the filter options match (all of them without any).")
    boolean all;

    @Mixin
    ProcessFilterOptions filter;

    @Option(names = "--dry-run", description = "Say which folders would be removed, and remove none.")
    boolean dryRun;

    @Option(
            names = {"-f", "--force"},
            description = "Do not ask before removing (needed when input is no terminal).")
    boolean force;

    @Override
    public Integer call() {
        filter.checkChoice(!refs.isEmpty(), all, "the jobs or workflows");
        Output out = session.output();
        CairnClient client = session.client();
        List<String> processes = all
                ? filter.matching(client, ProcessLines.ENDED, "", p -> true)
                : refs.stream().map(ref -> ref.resolve(client)).toList();
        List<JsonNode> planned = WorkdirCleaning.clean(client, processes, true);
        String plan = WorkdirCleaning.folders(planned, "would clean");
        if (dryRun || plan == null) {
            WorkdirCleaning.print(planned, out);
            out.note(plan == null ? "no folder to remove" : plan + " would be removed");
            return ExitCodes.OK;
        }
        if (!Prompts.of(true, out.err()).confirm("remove " + plan, force)) {
            out.note("nothing removed");
            return ExitCodes.OK;
        }
        List<JsonNode> done = WorkdirCleaning.clean(client, processes, false);
        WorkdirCleaning.print(done, out);
        String removed = WorkdirCleaning.folders(done, "cleaned");
        long failed = WorkdirCleaning.failed(done);
        out.note((removed == null ? "removed no folder" : "removed " + removed)
                + (failed == 0 ? "" : "; " + failed + " could not be removed, each says why"));
        return failed == 0 ? ExitCodes.OK : ExitCodes.FAILED;
    }
}
