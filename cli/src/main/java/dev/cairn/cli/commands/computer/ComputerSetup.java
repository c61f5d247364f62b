package dev.cairn.cli.commands.computer;

import java.nio.file.Path;
import java.util.List;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.config.ConfigFiles;
import dev.cairn.cli.options.Prompts;
import dev.cairn.cli.options.Prompts.Field;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;

/** {@code cairn computer setup}: a new computer, from options, a file, or questions at the terminal. */
@Command(
        name = "setup",
        description = {
            "Set up a computer. Each field comes from its option, else from the --config file, else (on a"
                    + " terminal) from a question; without a terminal, or with -n, a missing required field is an"
                    + " error naming it.",
            "The server checks the computer before it stores it. `computer export setup` writes a file this reads."
        })
final class ComputerSetup implements Runnable {

    /** The questions, in the order they are asked, with the option and the file field that answer them. */
    static final List<Field> QUESTIONS = List.of(
            new Field("label", "--label", "Computer label", null, true),
            new Field("hostname", "--hostname", "Hostname", "localhost", true),
            new Field("description", "--description", "Description", null, false),
            new Field("transport", "--transport", "Transport (core.local, core.ssh)", "core.local", true),
            new Field(
                    "scheduler",
                    "--scheduler",
                    "Scheduler (core.direct, core.slurm, core.pbspro, core.torque)",
                    "core.direct",
                    true),
            new Field("work_dir", "--work-dir", "Work directory (absolute)", null, true),
            new Field("mpirun_command", "--mpirun-command", "Mpirun command", null, false),
            new Field(
                    "default_mpiprocs_per_machine",
                    "--mpiprocs-per-machine",
                    "Default MPI processes per machine",
                    null,
                    false),
            new Field("prepend_text", "--prepend-text", "Text before each job's command", null, false),
            new Field("append_text", "--append-text", "Text after each job's command", null, false));

    @Mixin
    Session session;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "A YAML (or .json) file of the fields: label, hostname, description, transport, scheduler,"
                    + " work_dir, mpirun_command, default_mpiprocs_per_machine, prepend_text, append_text,"
                    + " transport_params and the other settings. Options given as well win.")
    Path config;

    @Option(
            names = {"-L", "--label"},
            paramLabel = "LABEL",
            description = "A unique label.")
    String label;

    @Option(
            names = {"-H", "--hostname"},
            paramLabel = "HOST",
            description = "The host to reach (localhost for core.local).")
    String hostname;

    @Option(
            names = {"-D", "--description"},
            paramLabel = "TEXT",
            description = "Free text.")
    String description;

    @Option(
            names = {"-T", "--transport"},
            paramLabel = "TYPE",
            description = "core.local or core.ssh.")
    String transport;

    @Option(
            names = {"-S", "--scheduler"},
            paramLabel = "TYPE",
            description = "core.direct, core.slurm, core.pbspro or core.torque.")
    String scheduler;

    @Option(
            names = {"-w", "--work-dir"},
            paramLabel = "DIR",
            description = "The absolute directory on the computer under which jobs run.")
    String workDir;

    @Option(
            names = "--mpirun-command",
            paramLabel = "COMMAND",
            description = "The MPI launcher, e.g. 'mpirun -np {tot_num_mpiprocs}'.")
    String mpirunCommand;

    @Option(
            names = "--mpiprocs-per-machine",
            paramLabel = "N",
            description = "MPI processes per machine when a job does not say.")
    Integer mpiprocs;

    @Option(names = "--prepend-text", paramLabel = "TEXT", description = "Shell text run before each job's command.")
    String prependText;

    @Option(names = "--append-text", paramLabel = "TEXT", description = "Shell text run after each job's command.")
    String appendText;

    @Option(
            names = {"-n", "--non-interactive"},
            description = "Ask nothing: a missing required field is an error.")
    boolean nonInteractive;

    @Override
    public void run() {
        Output out = session.output();
        ObjectNode fields = config == null ? JsonTrees.object() : ConfigFiles.read(config, ComputerFields.all());
        put(fields, "label", label);
        put(fields, "hostname", hostname);
        put(fields, "description", description);
        put(fields, "transport", transport);
        put(fields, "scheduler", scheduler);
        put(fields, "work_dir", workDir);
        put(fields, "mpirun_command", mpirunCommand);
        put(fields, "default_mpiprocs_per_machine", mpiprocs == null ? null : mpiprocs.toString());
        put(fields, "prepend_text", prependText);
        put(fields, "append_text", appendText);
        Prompts prompts = Prompts.of(!nonInteractive, out.err());
        for (Field field : QUESTIONS) {
            if (!fields.hasNonNull(field.name())) {
                put(fields, field.name(), prompts.value(null, field, field.name()));
            }
        }
        JsonNode computer = session.client().post("/api/v1/computers", ComputerFields.request(fields));
        if (out.json()) {
            out.print(computer);
        } else {
            out.line("computer '" + computer.path("label").asString() + "' set up ("
                    + computer.path("uuid").asString() + ")");
            out.note("check it: cairn computer test " + computer.path("label").asString());
        }
    }

    private static void put(ObjectNode fields, String name, String value) {
        if (value != null) {
            fields.set(
                    name,
                    ComputerFields.typed(name, JsonTrees.MAPPER.getNodeFactory().stringNode(value)));
        }
    }
}
