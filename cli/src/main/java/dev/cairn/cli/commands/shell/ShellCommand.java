package dev.cairn.cli.commands.shell;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
import dev.cairn.cli.client.ServerEvents;
import dev.cairn.cli.options.InputOptions;
import dev.cairn.cli.options.JobOptionFlags;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.ProcessLines;

/** {@code cairn shell run 'COMMAND'}: any program run as a calculation job (core.shell), with full provenance. */
@Command(
        name = "shell",
        description = "Run any program as a calculation job with full provenance, no plugin needed (core.shell).",
        subcommands = ShellCommand.Run.class)
public final class ShellCommand {

    static final String SHELL_JOBS = "/api/v1/shell-jobs";
    static final String PROCESSES = "/api/v1/processes";
    static final String CORE_SHELL = "core.shell";

    /** What is printed of the command's stdout after it ran, at most. */
    static final int STDOUT_SHOWN = 64 * 1024;

    @Command(
            mixinStandardHelpOptions = true,
            name = "run",
            description = {
                "Run COMMAND on a computer as a shell job: its program is found there, {name} in its arguments stands"
                        + " for the input name (a file's name in the work directory, a value's text), its stdout,"
                        + " stderr and exit status are kept, and the files --output names come back as outputs.",
                "Waits for the job and prints its outputs and what it printed (exit code 0 when it finished with"
                        + " exit status 0, 1 when not); with --submit prints the process's uuid at once.",
                "Example: cairn shell run 'wc -l {data}' --input data=@measurements.csv"
            })
    static final class Run implements Callable<Integer> {

        @Mixin
        Session session;

        @Parameters(paramLabel = "COMMAND", description = "The program and its arguments, quoted as one word.")
        String command;

        @Option(
                names = {"-i", "--input"},
                paramLabel = "NAME=REF",
                description = {
                    "An input named NAME (repeat for more): a stored node by PK, UUID or prefix, or @PATH for a file"
                            + " or folder on this machine, uploaded first (and deleted again if the server refuses the"
                            + " job)."
                })
        List<String> inputs = new ArrayList<>();

        @Option(
                names = "--value",
                paramLabel = "NAME=VALUE",
                description =
                        "A number, string or boolean input named NAME, as JSON when it reads as JSON (2, 1.5, true),"
                                + " else as text.")
        List<String> values = new ArrayList<>();

        @Option(
                names = {"-o", "--output"},
                paramLabel = "GLOB",
                description = "A file or folder the command writes, by name or glob; it becomes an output.")
        List<String> outputs = new ArrayList<>();

        @Option(
                names = "--filename",
                paramLabel = "NAME=FILE",
                description = "The file name the input NAME is written to (default: its own name).")
        List<String> filenames = new ArrayList<>();

        @Option(
                names = "--parser",
                paramLabel = "NAME=SPEC",
                description = "An output NAME read from a file, SPEC as JSON: {\"json\": \"out.json\"} or"
                        + " {\"regex\": \"E = (\\\\S+)\", \"file\": \"stdout\"}.")
        List<String> parsers = new ArrayList<>();

        @Option(names = "--stdin", paramLabel = "FILE", description = "A file in the work directory read as stdin.")
        String stdin;

        @Option(names = "--computer", paramLabel = "LABEL", description = "Where to run (default: localhost).")
        String computer;

        @Mixin
        JobOptionFlags jobOptions;

        @Option(names = "--no-cache", description = "Do not take the outputs from an identical earlier job.")
        boolean noCache;

        @Option(names = "--submit", description = "Print the process's uuid and return at once.")
        boolean submit;

        @Override
        public Integer call() {
            CairnClient client = session.client();
            Output out = session.output();
            LocalInputs files = new LocalInputs();
            JsonNode process = submit(client, request(client, files), files, out);
            String uuid = JsonTrees.text(process, "uuid", "");
            if (submit) {
                if (out.json()) {
                    out.print(process);
                } else {
                    out.line(uuid);
                    out.note("submitted " + ProcessLines.name(process) + "; `cairn process watch "
                            + ProcessLines.shortId(uuid) + "` follows it");
                }
                return ExitCodes.OK;
            }
            out.note("running " + ProcessLines.name(process) + " " + uuid);
            awaitEnd(client, uuid);
            JsonNode detail = client.get(PROCESSES + "/" + CairnClient.segment(uuid));
            if (out.json()) {
                out.print(detail);
            } else {
                print(client, detail, out);
            }
            return ProcessLines.succeeded(detail.path("process")) ? ExitCodes.OK : ExitCodes.FAILED;
        }

        /** Uploads the local inputs, then submits the job; when the server refuses either, deletes the uploads. */
        private static JsonNode submit(CairnClient client, ObjectNode body, LocalInputs files, Output out) {
            try {
                files.uploadInto(client, (ObjectNode) body.get("nodes"));
                return client.post(SHELL_JOBS, body);
            } catch (CliException e) {
                if (e.refusedByServer()) {
                    files.discard(client, out);
                }
                throw e;
            }
        }

        /** The job's request without its local files, which go into {@code files}: all checked, nothing sent. */
        private ObjectNode request(CairnClient client, LocalInputs files) {
            ObjectNode body = JsonTrees.object().put("command", command);
            if (computer != null) {
                body.put("computer", computer);
            }
            ObjectNode nodes = body.putObject("nodes");
            for (String input : inputs) {
                String[] kv = pair("--input", input);
                if (kv[1].startsWith("@")) {
                    files.add(kv[0], Path.of(kv[1].substring(1)));
                } else {
                    JsonNode node = client.get(NodeRef.parse(kv[1]).path(client));
                    nodes.putObject(kv[0]).put("uuid", JsonTrees.text(node, "uuid", ""));
                }
            }
            for (String value : values) {
                String[] kv = pair("--value", value);
                nodes.set(kv[0], InputOptions.value(kv[1]));
            }
            if (!outputs.isEmpty()) {
                var array = body.putArray("outputs");
                outputs.forEach(array::add);
            }
            if (!filenames.isEmpty()) {
                ObjectNode names = body.putObject("filenames");
                for (String f : filenames) {
                    String[] kv = pair("--filename", f);
                    names.put(kv[0], kv[1]);
                }
            }
            if (!parsers.isEmpty()) {
                ObjectNode specs = body.putObject("parsers");
                for (String p : parsers) {
                    String[] kv = pair("--parser", p);
                    JsonNode spec = InputOptions.value(kv[1]);
                    if (!spec.isObject()) {
                        throw CliException.usage(
                                "--parser " + p + ": SPEC is a JSON object such as" + " {\"json\": \"out.json\"}");
                    }
                    specs.set(kv[0], spec);
                }
            }
            if (stdin != null) {
                body.put("stdin", stdin);
            }
            if (noCache) {
                body.putObject("metadata").put("use_cache", false);
            }
            jobOptions.putInto(body, client, CORE_SHELL);
            return body;
        }

        private static String[] pair(String option, String given) {
            int eq = given.indexOf('=');
            if (eq <= 0) {
                throw CliException.usage(
                        option + " '" + given + "' is not NAME=" + (option.equals("--input") ? "REF" : "VALUE"));
            }
            return new String[] {given.substring(0, eq).strip(), given.substring(eq + 1)};
        }

        /** Waits, reading the process's event stream, until it has ended. */
        private static void awaitEnd(CairnClient client, String uuid) {
            ServerEvents events = new ServerEvents(client, "process=" + CairnClient.param(uuid), "0");
            InputStream stream = events.open();
            if (ProcessLines.ended(
                    client.get(PROCESSES + "/" + CairnClient.segment(uuid)).path("process"))) {
                try {
                    stream.close();
                } catch (IOException e) {
                    // nothing was read from it
                }
                return;
            }
            events.follow(stream, event -> !ProcessLines.ENDED.contains(JsonTrees.text(event, "to", "")));
        }

        /** The state, the outputs and what the command printed. */
        private static void print(CairnClient client, JsonNode detail, Output out) {
            JsonNode process = detail.path("process");
            out.line(JsonTrees.text(process, "uuid", "") + " " + ProcessLines.state(process, out.style()));
            JsonNode exit = detail.path("exit_code");
            if (exit.path("status").asInt(0) != 0) {
                out.line(JsonTrees.text(exit, "label", "") + ": " + JsonTrees.text(exit, "message", ""));
            }
            ProcessLines.ports("Output", detail.path("outputs"), out);
            JsonNode stdout = detail.path("outputs").path("stdout");
            if (stdout.isObject()) {
                String file =
                        "/api/v1/nodes/" + CairnClient.segment(JsonTrees.text(stdout, "uuid", "")) + "/files/stdout";
                try (InputStream in = client.stream(file, "application/octet-stream")) {
                    byte[] printed = in.readNBytes(STDOUT_SHOWN + 1);
                    out.line("");
                    out.line("stdout:");
                    String text =
                            new String(printed, 0, Math.min(printed.length, STDOUT_SHOWN), StandardCharsets.UTF_8);
                    out.out().print(text);
                    if (printed.length > STDOUT_SHOWN) {
                        out.line("… (more: cairn node repo cat " + JsonTrees.text(stdout, "uuid", "") + " stdout)");
                    }
                    out.out().flush();
                } catch (IOException e) {
                    throw new CliException(ExitCodes.FAILED, "reading the stdout of the job: " + e.getMessage(), null);
                }
            }
        }
    }

    private ShellCommand() {}
}
