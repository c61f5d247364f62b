package dev.cairn.cli.commands.process;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

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
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.ProcessFilterOptions;
import dev.cairn.cli.options.Prompts;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.ProcessLines;
import dev.cairn.cli.output.Progress;

/**
 * {@code process pause|play|kill}: of the processes named, or of every live one the filter options
 * match ({@code --all}), which asks first unless {@code --force}.
 */
final class ProcessControls {

    private ProcessControls() {}

    /** What the three share: the processes, by name or by filter, and the asking. */
    abstract static class Control implements Callable<Integer> {

        @Mixin
        Session session;

        @Parameters(
                paramLabel = "REF",
                arity = "0..*",
                converter = NodeRef.Converter.class,
                description = "The processes: PKs, uuids or prefixes of uuids.")
        List<NodeRef> refs = new ArrayList<>();

        @Option(
                names = {"-a", "--all"},
                description = "Every live process the filter options match (all live ones without any).")
        boolean all;

        @Mixin
        ProcessFilterOptions filter;

        @Option(
                names = {"-f", "--force"},
                description = "Do not ask before acting on processes by --all (needed when input is no terminal).")
        boolean force;

        /** "pause", "play", "kill": the action's name in the URL. */
        abstract String action();

        /** What a process must be for the action, as list parameters ({@code paused=false}), or empty. */
        abstract String applicable();

        /** After the action: waits as asked; the exit code. */
        int after(List<String> acted) {
            return ExitCodes.OK;
        }

        @Override
        public Integer call() {
            filter.checkChoice(!refs.isEmpty(), all, "the processes to " + action());
            Output out = session.output();
            CairnClient client = session.client();
            List<String> targets;
            if (all) {
                targets = matching(client);
                if (targets.isEmpty()) {
                    out.note("no process to " + action() + " matches");
                    return ExitCodes.OK;
                }
                if (!confirmed(targets.size(), out)) {
                    out.note("nothing done");
                    return ExitCodes.OK;
                }
            } else {
                targets =
                        refs.stream().map(ref -> ref.resolve(session.client())).toList();
            }
            Map<String, JsonNode> results = new LinkedHashMap<>();
            int exit = ExitCodes.OK;
            List<String> acted = new ArrayList<>();
            try (Progress progress = out.progress(verb() + " processes", targets.size())) {
                for (String target : targets) {
                    try {
                        JsonNode r = client.post(
                                ProcessEndpoint.PATH + "/" + CairnClient.segment(target) + "/" + action(),
                                JsonTrees.object());
                        results.put(target, r);
                        acted.add(JsonTrees.text(r, "process", target));
                    } catch (CliException e) {
                        if (e.exitCode() == ExitCodes.UNAVAILABLE || e.exitCode() == ExitCodes.REFUSED) {
                            throw e;
                        }
                        ObjectNode refused = JsonTrees.object()
                                .put("process", target)
                                .put("outcome", "refused")
                                .put("detail", e.getMessage());
                        results.put(target, refused);
                        exit = exit == ExitCodes.OK ? e.exitCode() : exit;
                    }
                    progress.advance(1);
                }
            }
            if (out.json()) {
                ArrayNode array = JsonTrees.MAPPER.createArrayNode();
                results.values().forEach(array::add);
                out.print(array);
            } else {
                for (JsonNode r : results.values()) {
                    String outcome = JsonTrees.text(r, "outcome", "");
                    if ("refused".equals(outcome)) {
                        out.note("cairn: " + JsonTrees.text(r, "detail", ""));
                    } else {
                        out.line(outcome + " " + JsonTrees.text(r, "entry_point", "") + "<"
                                + JsonTrees.text(r, "process", "") + ">");
                    }
                }
            }
            int waited = after(acted);
            return exit != ExitCodes.OK ? exit : waited;
        }

        private String verb() {
            return switch (action()) {
                case "pause" -> "Pausing";
                case "play" -> "Playing";
                default -> "Killing";
            };
        }

        /** The uuids of every live process the filter matches that can take the action. */
        private List<String> matching(CairnClient client) {
            String extra = applicable();
            if (filter.paused() && !extra.isEmpty()) {
                if (!extra.equals("paused=true")) {
                    throw CliException.usage("--paused: " + action() + " acts on processes that are not paused");
                }
                extra = ""; // the filter asks for it already
            }
            return filter.matching(client, ProcessFilterOptions.ACTIVE, extra, p -> !ProcessLines.ended(p));
        }

        /** Whether to go on: with --force, or asked at the terminal; without one, a usage error. */
        private boolean confirmed(int count, Output out) {
            return Prompts.of(true, out.err())
                    .confirm(action() + " " + count + " process" + (count == 1 ? "" : "es"), force);
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "pause",
            description = "Pause processes: each finishes its current step, then waits until played.")
    static final class Pause extends Control {
        @Override
        String action() {
            return "pause";
        }

        @Override
        String applicable() {
            return "paused=false";
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "play",
            description = "Play paused processes: each goes on where it stopped.")
    static final class Play extends Control {
        @Override
        String action() {
            return "play";
        }

        @Override
        String applicable() {
            return "paused=true";
        }
    }

    @Command(
            mixinStandardHelpOptions = true,
            name = "kill",
            description = "Kill processes with the processes they called that are still alive; a running step is"
                    + " interrupted, a calculation job's scheduler job cancelled.")
    static final class Kill extends Control {

        @Option(
                names = {"-w", "--wait"},
                description = "Wait until every process is killed (see --timeout).")
        boolean await;

        @Option(
                names = "--wait-timeout",
                paramLabel = "SECONDS",
                defaultValue = "60",
                description = "With --wait: give up after this long, exit code 1 (default: ${DEFAULT-VALUE}).")
        int waitSeconds;

        @Override
        String action() {
            return "kill";
        }

        @Override
        String applicable() {
            return "";
        }

        @Override
        int after(List<String> acted) {
            if (!await || acted.isEmpty()) {
                return ExitCodes.OK;
            }
            Output out = session.output();
            long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
            List<String> alive = new ArrayList<>(acted);
            try (Progress progress = out.progress("Waiting for the kills", acted.size())) {
                while (!alive.isEmpty()) {
                    alive.removeIf(uuid -> ProcessLines.ended(session.client()
                            .get(ProcessEndpoint.PATH + "/" + CairnClient.segment(uuid))
                            .path("process")));
                    progress.set(acted.size() - alive.size());
                    if (alive.isEmpty()) {
                        break;
                    }
                    if (System.nanoTime() > deadline) {
                        out.note("cairn: not killed within " + waitSeconds + " s: " + String.join(", ", alive));
                        return ExitCodes.FAILED;
                    }
                    ProcessEndpoint.sleep(500);
                }
            }
            out.note("killed: " + acted.size() + " process" + (acted.size() == 1 ? "" : "es") + " ended");
            return ExitCodes.OK;
        }
    }
}
