package dev.cairn.cli.commands.calcjob;

import java.io.IOException;
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
import dev.cairn.cli.client.RemoteNodeFiles;
import dev.cairn.cli.options.NodeRef;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.FileListings;
import dev.cairn.cli.output.NodeTypeNames;
import dev.cairn.cli.output.Output;

/** {@code cairn calcjob ...}: a calculation job's input files, retrieved files, results and work directory. */
@Command(
        name = "calcjob",
        description =
                "Calculation jobs: their input and retrieved files, results and remote work directory, and removing"
                        + " the work directories they left.",
        subcommands = {
            CalcjobCommand.InputLs.class,
            CalcjobCommand.InputCat.class,
            CalcjobCommand.OutputLs.class,
            CalcjobCommand.OutputCat.class,
            CalcjobCommand.Res.class,
            CalcjobCommand.GotoComputer.class,
            CleanWorkdir.class
        })
public final class CalcjobCommand {

    private static final String CALCJOB = "process.calculation.calcjob.";
    private static final String JOB = "The calculation job: its PK, UUID or a unique UUID prefix.";

    /**
     * What a job's node keeps besides its input files, about how it was submitted: the submit script
     * (Cairn's, AiiDA's) and AiiDA's {@code .aiida} folder. Never the main input file.
     */
    private static final List<String> SUBMISSION_FILES = List.of("_cairn_submit.sh", "_aiidasubmit.sh", ".aiida/");

    /** A calculation job, checked to be one. */
    record Job(CairnClient client, String uuid, JsonNode node) {

        static Job of(Session session, NodeRef ref) {
            CairnClient client = session.client();
            JsonNode node = client.get(ref.path(client) + "?extras=");
            if (!node.path("node_type").asString().startsWith(CALCJOB)) {
                throw CliException.usage(ref + " is a " + NodeTypeNames.name(node) + ", not a calculation job");
            }
            return new Job(client, node.path("uuid").asString(), node);
        }

        /** The uuid of the output linked (create) with this label, or null. */
        JsonNode output(String label) {
            JsonNode links = client.get("/api/v1/nodes/" + uuid + "/links/outgoing?link_types=create&link_label="
                    + CairnClient.param(label));
            return links.path("items").isEmpty()
                    ? null
                    : links.path("items").get(0).path("node");
        }

        String retrieved() {
            JsonNode retrieved = output("retrieved");
            if (retrieved == null) {
                throw new CliException(
                        ExitCodes.NOT_FOUND,
                        "calculation job " + uuid + " has no retrieved folder (yet)",
                        "`cairn process show " + uuid + "` tells where it is");
            }
            return retrieved.path("uuid").asString();
        }

        /**
         * The file to print when none is named: the one the attribute names ({@code input_filename}), else the
         * only file of the folder that is not one of {@code besides} (paths, or folders ending in '/'); a usage
         * error when that leaves a choice.
         */
        String defaultFile(String attribute, String folder, String what, List<String> besides) {
            JsonNode name = node.path("attributes").path(attribute);
            if (name.isString()) {
                return name.asString();
            }
            List<String> files = new ArrayList<>();
            for (JsonNode entry :
                    new RemoteNodeFiles(client, folder).list("", true).path("entries")) {
                String path = entry.path("path").asString();
                if ("file".equals(entry.path("type").asString())
                        && besides.stream().noneMatch(b -> b.endsWith("/") ? path.startsWith(b) : path.equals(b))) {
                    files.add(path);
                }
            }
            if (files.size() == 1) {
                return files.getFirst();
            }
            throw CliException.usage("calculation job " + uuid + " names no " + what + " file and has "
                    + (files.isEmpty() ? "none" : files.size() + " (" + String.join(", ", files) + ")")
                    + ": give its PATH");
        }
    }

    /** The job and an optional path within its files. */
    abstract static class Files implements Runnable {
        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "JOB", converter = NodeRef.Converter.class, description = JOB)
        NodeRef ref;

        @Parameters(index = "1", paramLabel = "PATH", arity = "0..1", description = "A path among the files.")
        String path;
    }

    @Command(
            name = "inputls",
            description = {
                "List the input files of a calculation job: those its plugin wrote and its submit script, kept on its"
                        + " node when it was submitted.",
                "Example: cairn calcjob inputls 42"
            })
    static final class InputLs extends Files {
        @Override
        public void run() {
            Job job = Job.of(session, ref);
            JsonNode listing = new RemoteNodeFiles(job.client(), job.uuid()).list(path == null ? "" : path, false);
            FileListings.print(session.output(), listing, false);
            if (listing.path("entries").isEmpty() && path == null) {
                // a job keeps its input files from its submission on
                boolean submitted = job.node().path("attributes").has("remote_workdir");
                session.output()
                        .note("calculation job " + job.uuid()
                                + (submitted
                                        ? " keeps no input files; look in its work directory (`cairn calcjob"
                                                + " gotocomputer`)"
                                        : " has no input files: it has not been submitted (yet), or its results"
                                                + " came from the cache"));
            }
        }
    }

    @Command(
            name = "inputcat",
            description = {
                "Print an input file of a calculation job (default: its main input file).",
                "Example: cairn calcjob inputcat 42 aiida.in"
            })
    static final class InputCat extends Files {
        @Override
        public void run() {
            Job job = Job.of(session, ref);
            new RemoteNodeFiles(job.client(), job.uuid())
                    .copyToStandardOutput(
                            path != null
                                    ? path
                                    : job.defaultFile("input_filename", job.uuid(), "input", SUBMISSION_FILES));
        }
    }

    @Command(
            name = "outputls",
            description = {"List the files retrieved from a calculation job.", "Example: cairn calcjob outputls 42"})
    static final class OutputLs extends Files {
        @Override
        public void run() {
            Job job = Job.of(session, ref);
            FileListings.print(
                    session.output(),
                    new RemoteNodeFiles(job.client(), job.retrieved()).list(path == null ? "" : path, false),
                    false);
        }
    }

    @Command(
            name = "outputcat",
            description = {
                "Print a file retrieved from a calculation job (default: its main output file).",
                "Example: cairn calcjob outputcat 42 aiida.out"
            })
    static final class OutputCat extends Files {
        @Override
        public void run() {
            Job job = Job.of(session, ref);
            String retrieved = job.retrieved();
            String file = path != null ? path : job.defaultFile("output_filename", retrieved, "output", List.of());
            new RemoteNodeFiles(job.client(), retrieved).copyToStandardOutput(file);
        }
    }

    @Command(
            name = "res",
            description = {
                "Print a calculation job's results as JSON: its output_parameters dictionary, or (when it has none)"
                        + " each value output by its label. With KEY, only that key's value.",
                "Example: cairn calcjob res 42 energy"
            })
    static final class Res implements Callable<Integer> {
        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "JOB", converter = NodeRef.Converter.class, description = JOB)
        NodeRef ref;

        @Parameters(index = "1", paramLabel = "KEY", arity = "0..1", description = "Only this key.")
        String key;

        @Option(
                names = "--link-label",
                paramLabel = "LABEL",
                defaultValue = "output_parameters",
                description = "The output whose attributes are the results (default: ${DEFAULT-VALUE}).")
        String linkLabel;

        @Override
        public Integer call() {
            Job job = Job.of(session, ref);
            JsonNode results = results(job);
            Output out = session.output();
            if (key == null) {
                out.print(results);
                return ExitCodes.OK;
            }
            if (!results.has(key)) {
                List<String> keys = new ArrayList<>(results.propertyNames());
                throw new CliException(
                        ExitCodes.NOT_FOUND, "the results have no key '" + key + "'; keys: " + keys, null);
            }
            JsonNode value = results.get(key);
            if (value.isValueNode() && !out.json()) {
                out.line(value.asString());
            } else {
                out.print(value);
            }
            return ExitCodes.OK;
        }

        private JsonNode results(Job job) {
            JsonNode parameters = job.output(linkLabel);
            if (parameters != null) {
                return job.client()
                        .get("/api/v1/nodes/" + parameters.path("uuid").asString() + "?extras=")
                        .path("attributes");
            }
            ObjectNode values = JsonTrees.object();
            JsonNode links = job.client().get("/api/v1/nodes/" + job.uuid() + "/links/outgoing?link_types=create");
            for (JsonNode link : links.path("items")) {
                JsonNode attributes = job.client()
                        .get("/api/v1/nodes/" + link.path("node").path("uuid").asString() + "?extras=")
                        .path("attributes");
                if (attributes.has("value") && attributes.size() == 1) {
                    values.set(link.path("label").asString(), attributes.get("value"));
                }
            }
            if (values.isEmpty()) {
                throw new CliException(
                        ExitCodes.NOT_FOUND,
                        "calculation job " + job.uuid() + " has no output '" + linkLabel + "' and no value outputs",
                        null);
            }
            return values;
        }
    }

    @Command(
            name = "gotocomputer",
            description = {
                "Open a shell in a calculation job's remote work directory: ssh to its computer and cd there (for"
                        + " a local computer, print the cd command).",
                "Example: cairn calcjob gotocomputer 42 --print"
            })
    static final class GotoComputer implements Callable<Integer> {
        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "JOB", converter = NodeRef.Converter.class, description = JOB)
        NodeRef ref;

        @Option(names = "--print", description = "Only print the command, do not run it.")
        boolean print;

        @Override
        public Integer call() {
            Job job = Job.of(session, ref);
            String dir = job.node().path("attributes").path("remote_workdir").asString("");
            if (dir.isEmpty()) {
                JsonNode remote = job.output("remote_folder");
                if (remote == null) {
                    throw new CliException(
                            ExitCodes.NOT_FOUND,
                            "calculation job " + job.uuid() + " has no remote work directory (not submitted yet, or"
                                    + " its results came from the cache)",
                            null);
                }
                dir = job.client()
                        .get("/api/v1/nodes/" + remote.path("uuid").asString() + "?extras=")
                        .path("attributes")
                        .path("remote_path")
                        .asString();
            }
            JsonNode computerRef = job.node().path("computer");
            JsonNode computer = job.client()
                    .get("/api/v1/computers/" + computerRef.path("uuid").asString());
            Output out = session.output();
            if (!computer.path("transportType").asString().endsWith("ssh")) {
                out.line("cd " + quote(dir));
                if (!print) {
                    out.note("the work directory is on this machine (computer '"
                            + computer.path("label").asString() + "'): run the cd above");
                }
                return ExitCodes.OK;
            }
            String user = computer.path("settings")
                    .path("transport_params")
                    .path("username")
                    .asString("");
            String host = (user.isEmpty() ? "" : user + "@")
                    + computer.path("hostname").asString();
            String remoteCommand = "cd " + quote(dir) + " && exec $SHELL -l";
            if (print) {
                out.line("ssh -t " + host + " " + quote(remoteCommand));
                return ExitCodes.OK;
            }
            try {
                Process ssh = new ProcessBuilder("ssh", "-t", host, remoteCommand)
                        .inheritIO()
                        .start();
                return ssh.waitFor();
            } catch (IOException e) {
                throw new CliException(ExitCodes.FAILED, "cannot run ssh: " + e.getMessage(), null, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(ExitCodes.INTERRUPTED, "interrupted", null, e);
            }
        }

        private static String quote(String text) {
            return "'" + text.replace("'", "'\\''") + "'";
        }
    }
}
