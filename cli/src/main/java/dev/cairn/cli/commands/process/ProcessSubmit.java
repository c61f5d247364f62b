package dev.cairn.cli.commands.process;

import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.InputOptions;
import dev.cairn.cli.options.JobOptionFlags;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.ProcessLines;
import dev.cairn.cli.output.Progress;

/** {@code process submit ENTRY_POINT}: launch a process, and with --wait or --watch see it to its end. */
@Command(
        mixinStandardHelpOptions = true,
        name = "submit",
        description = {
            "Launch a process of an entry point (`cairn process submit --help`; the server's process types list"
                    + " them) with its inputs. Prints its uuid.",
            "With --wait or --watch: exit code 0 when it finished with exit status 0, 1 when it failed, was"
                    + " killed or excepted; Ctrl-C stops waiting (130), the process goes on."
        })
final class ProcessSubmit implements Callable<Integer> {

    @Mixin
    Session session;

    @Parameters(paramLabel = "ENTRY_POINT", description = "What to run, e.g. arithmetic.add_multiply.")
    String entryPoint;

    @Mixin
    InputOptions inputs;

    @Mixin
    JobOptionFlags jobOptions;

    @Option(names = "--label", paramLabel = "LABEL", description = "A label for the process node.")
    String label;

    @Option(names = "--no-cache", description = "Do not take the outputs from an equal calculation's (use_cache).")
    boolean noCache;

    @Option(
            names = {"-w", "--wait"},
            description = "Wait until it ends, with a progress bar of its call tree.")
    boolean await;

    @Option(names = "--watch", description = "Print its state changes and its children's until it ends.")
    boolean watch;

    @Override
    public Integer call() {
        CairnClient client = session.client();
        Output out = session.output();
        ObjectNode launch = launch(entryPoint, inputs);
        if (noCache) {
            launch.putObject("metadata").put("use_cache", false);
        }
        jobOptions.putInto(launch, client, entryPoint);
        JsonNode process = client.post(ProcessEndpoint.PATH, launch);
        String uuid = JsonTrees.text(process, "uuid", "");
        if (label != null) {
            process = labelled(client, uuid, process);
        }
        if (!await && !watch) {
            if (out.json()) {
                out.print(process);
            } else {
                out.line(uuid);
                out.note("submitted " + ProcessLines.name(process) + "; `cairn process watch "
                        + ProcessLines.shortId(uuid) + "` follows it");
            }
            return ExitCodes.OK;
        }
        out.note("submitted " + ProcessLines.name(process) + " " + uuid);
        Thread notice = new Thread(() -> {
            out.endLine();
            out.err().println("stopped waiting; " + uuid + " goes on (`cairn process watch " + uuid + "`)");
            out.err().flush();
        });
        Runtime.getRuntime().addShutdownHook(notice);
        JsonNode ended = watch ? ProcessWatch.follow(client, uuid, true, out) : await(client, uuid, out);
        Runtime.getRuntime().removeShutdownHook(notice);
        if (out.json()) {
            out.print(ended);
        } else {
            out.line(uuid + " " + ProcessLines.state(ended, out.style()));
        }
        return ProcessLines.succeeded(ended) ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** The launch's body: the entry point and its inputs. */
    static ObjectNode launch(String entryPoint, InputOptions inputs) {
        ObjectNode launch = JsonTrees.object().put("entry_point", entryPoint);
        launch.set("inputs", inputs.toJson());
        return launch;
    }

    private JsonNode labelled(CairnClient client, String uuid, JsonNode process) {
        try {
            client.patch(
                    "/api/v1/nodes/" + CairnClient.segment(uuid),
                    JsonTrees.object().put("label", label));
            return ((ObjectNode) process).put("label", label);
        } catch (CliException e) {
            throw new CliException(
                    e.exitCode(),
                    "submitted " + uuid + ", but its label was refused: " + e.getMessage(),
                    "`cairn process show " + uuid + "`");
        }
    }

    /** Polls the call tree until the process ends, the bar counting the processes of the tree that ended. */
    private static JsonNode await(CairnClient client, String uuid, Output out) {
        String tree = ProcessEndpoint.PATH + "/" + CairnClient.segment(uuid) + "/tree";
        try (Progress progress = out.progress("Running", 1)) {
            while (true) {
                JsonNode root = client.get(tree);
                int[] counts = new int[2];
                count(root, counts);
                progress.total(counts[0]);
                progress.set(counts[1]);
                if (ProcessLines.ended(root.path("process"))) {
                    return root.path("process");
                }
                ProcessEndpoint.sleep(500);
            }
        }
    }

    private static void count(JsonNode node, int[] counts) {
        counts[0]++;
        if (ProcessLines.ended(node.path("process"))) {
            counts[1]++;
        }
        node.path("called").forEach(child -> count(child, counts));
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "explain-cache",
            description = {
                "Say whether a launch would take its outputs from the cache, and why not: of a process (REF: a"
                        + " launch with its inputs), or of an entry point with --input/--inputs. Nothing is launched."
            })
    static final class ExplainCache implements Runnable {

        @Mixin
        Session session;

        @Parameters(
                paramLabel = "REF|ENTRY_POINT",
                description = "A process (uuid or prefix), or an entry point with inputs.")
        String target;

        @Mixin
        InputOptions inputs;

        @Override
        public void run() {
            CairnClient client = session.client();
            ObjectNode launch;
            if (target.contains(".") || inputs.given()) {
                launch = launch(target, inputs);
            } else {
                JsonNode detail = client.get(
                        ProcessEndpoint.PATH + "/" + NodeRef.parse(target).segment(client));
                launch = JsonTrees.object()
                        .put("entry_point", JsonTrees.text(detail.path("process"), "entry_point", ""));
                ObjectNode in = launch.putObject("inputs");
                for (Map.Entry<String, JsonNode> port : detail.path("inputs").properties()) {
                    ObjectNode at = in;
                    String[] path = port.getKey().split("\\.");
                    for (int i = 0; i < path.length - 1; i++) {
                        at = at.has(path[i]) ? (ObjectNode) at.get(path[i]) : at.putObject(path[i]);
                    }
                    at.putObject(path[path.length - 1]).put("uuid", JsonTrees.text(port.getValue(), "uuid", ""));
                }
            }
            JsonNode explanation = client.post(ProcessEndpoint.PATH + "/explain-cache", launch);
            Output out = session.output();
            if (out.json()) {
                out.print(explanation);
                return;
            }
            out.line(JsonTrees.text(explanation, "explanation", ""));
        }
    }
}
