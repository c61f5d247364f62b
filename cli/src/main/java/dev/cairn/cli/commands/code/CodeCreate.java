package dev.cairn.cli.commands.code;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.client.Multipart;
import dev.cairn.cli.config.ConfigFiles;
import dev.cairn.cli.options.Prompts;
import dev.cairn.cli.options.Prompts.Field;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;

/** {@code cairn code create}: an installed code (a path on a computer) or a portable one (a directory uploaded). */
@Command(
        name = "create",
        description = {
            "Create a code: installed (--computer and an absolute --filepath-executable on it) or portable"
                    + " (--filepath-files DIR, uploaded, and --filepath-executable, a path inside it).",
            "Each field comes from its option, else the --config file, else (on a terminal) a question."
        })
final class CodeCreate implements Runnable {

    @Mixin
    Session session;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "A YAML (or .json) file of the fields: label, computer, filepath_executable, filepath_files,"
                    + " description, default_calc_job_plugin, prepend_text, append_text, with_mpi. Options given as"
                    + " well win; filepath_files is relative to the file's directory.")
    Path config;

    @Option(
            names = {"-L", "--label"},
            paramLabel = "LABEL",
            description = "The code's label (no '@'): unique on its computer, or among portable codes.")
    String label;

    @Option(
            names = {"-Y", "--computer"},
            paramLabel = "COMPUTER",
            description = "The computer an installed code is on.")
    String computer;

    @Option(
            names = "--filepath-executable",
            paramLabel = "PATH",
            description = "Installed: the executable's absolute path on the computer; portable: its path among the"
                    + " files.")
    String executable;

    @Option(
            names = "--filepath-files",
            paramLabel = "DIR",
            description = "A portable code's files: this directory is uploaded, sub-directories included.")
    Path files;

    @Option(
            names = {"-D", "--description"},
            paramLabel = "TEXT",
            description = "Free text.")
    String description;

    @Option(
            names = {"-P", "--default-calc-job-plugin"},
            paramLabel = "ENTRY_POINT",
            description = "The calculation job launched with the code when none is named (`cairn plugin list`).")
    String plugin;

    @Option(names = "--prepend-text", paramLabel = "TEXT", description = "Shell text before the code's command.")
    String prependText;

    @Option(names = "--append-text", paramLabel = "TEXT", description = "Shell text after the code's command.")
    String appendText;

    @Option(
            names = "--with-mpi",
            negatable = true,
            description = "Run the code under MPI (--no-with-mpi: never; default: as each job's options say).")
    Boolean withMpi;

    @Option(
            names = {"-n", "--non-interactive"},
            description = "Ask nothing: a missing required field is an error.")
    boolean nonInteractive;

    @Override
    public void run() {
        Output out = session.output();
        ObjectNode fields = config == null ? JsonTrees.object() : ConfigFiles.read(config, CodeFields.NAMES);
        if (config != null && fields.hasNonNull("filepath_files")) {
            Path dir = config.toAbsolutePath()
                    .getParent()
                    .resolve(fields.get("filepath_files").asString());
            fields.put("filepath_files", dir.toString());
        }
        put(fields, "label", label);
        put(fields, "computer", computer);
        put(fields, "filepath_executable", executable);
        put(fields, "filepath_files", files == null ? null : files.toString());
        put(fields, "description", description);
        put(fields, "default_calc_job_plugin", plugin);
        put(fields, "prepend_text", prependText);
        put(fields, "append_text", appendText);
        if (withMpi != null) {
            fields.put("with_mpi", withMpi);
        }
        boolean portable = fields.hasNonNull("filepath_files");
        Prompts prompts = Prompts.of(!nonInteractive, out.err());
        List<Field> questions = portable
                ? List.of(
                        new Field("label", "--label", "Code label", null, true),
                        new Field(
                                "filepath_executable",
                                "--filepath-executable",
                                "Executable (among the files)",
                                null,
                                true))
                : List.of(
                        new Field("label", "--label", "Code label", null, true),
                        new Field("computer", "--computer", "Computer", null, true),
                        new Field(
                                "filepath_executable",
                                "--filepath-executable",
                                "Executable (absolute path on the computer)",
                                null,
                                true));
        for (Field field : questions) {
            if (!fields.hasNonNull(field.name())) {
                put(fields, field.name(), prompts.value(null, field, field.name()));
            }
        }
        JsonNode code = portable ? createPortable(fields) : createInstalled(fields);
        if (out.json()) {
            out.print(code);
        } else {
            out.line("code '" + code.path("fullLabel").asString() + "' created ("
                    + code.path("uuid").asString() + ")");
        }
    }

    private JsonNode createInstalled(ObjectNode fields) {
        ObjectNode body = JsonTrees.object();
        body.set("label", fields.get("label"));
        body.set("computer", fields.get("computer"));
        body.set("executable", fields.get("filepath_executable"));
        CodeFields.copy(fields, "description", body, "description");
        CodeFields.copy(fields, "default_calc_job_plugin", body, "defaultCalcJobPlugin");
        CodeFields.copy(fields, "prepend_text", body, "prependText");
        CodeFields.copy(fields, "append_text", body, "appendText");
        CodeFields.copy(fields, "with_mpi", body, "withMpi");
        return session.client().post("/api/v1/codes", body);
    }

    private JsonNode createPortable(ObjectNode fields) {
        if (fields.hasNonNull("computer")) {
            throw CliException.usage("a portable code (--filepath-files) is on no computer: leave out --computer");
        }
        Path dir = Path.of(fields.get("filepath_files").asString());
        if (!Files.isDirectory(dir)) {
            throw CliException.usage("--filepath-files: " + dir + " is not a directory");
        }
        Multipart form = new Multipart()
                .field("label", text(fields, "label"))
                .field("executable", text(fields, "filepath_executable"))
                .field("description", text(fields, "description"))
                .field("defaultCalcJobPlugin", text(fields, "default_calc_job_plugin"))
                .field("prependText", text(fields, "prepend_text"))
                .field("appendText", text(fields, "append_text"))
                .field("withMpi", text(fields, "with_mpi"));
        int count;
        try {
            count = form.folder("files", dir);
        } catch (IOException e) {
            throw CliException.usage("--filepath-files: cannot read " + dir + ": " + e.getMessage());
        }
        if (count == 0) {
            throw CliException.usage("--filepath-files: " + dir + " holds no files");
        }
        session.output().note("uploading " + count + " file" + (count == 1 ? "" : "s") + " from " + dir);
        return session.client().post("/api/v1/codes", form);
    }

    private static String text(ObjectNode fields, String name) {
        JsonNode value = fields.get(name);
        return value == null || value.isNull() ? null : value.asString();
    }

    private static void put(ObjectNode fields, String name, String value) {
        if (value != null) {
            fields.put(name, value);
        }
    }
}
