package dev.cairn.cli.commands.computer;

import java.nio.file.Path;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.config.ConfigFiles;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;

/** {@code cairn computer export setup|config LABEL [FILE]}: a computer as the files setup and configure read. */
@Command(
        name = "export",
        description = "Write a computer's set-up or transport configuration as YAML, to a file or standard output.",
        subcommands = {ComputerExport.Setup.class, ComputerExport.Config.class})
final class ComputerExport {

    abstract static class Export implements Runnable {

        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "LABEL", description = "The computer's label or uuid.")
        String label;

        @Parameters(
                index = "1",
                arity = "0..1",
                paramLabel = "FILE",
                description = "Where to write (default: standard output).")
        Path file;

        abstract JsonNode fields(JsonNode computer);

        @Override
        public void run() {
            JsonNode fields = fields(session.client().get(ComputerFields.path(label)));
            Output out = session.output();
            if (out.json()) {
                out.print(fields);
                return;
            }
            String yaml = ConfigFiles.yaml(fields.isObject() ? (ObjectNode) fields : JsonTrees.object());
            if (file == null) {
                out.out().print(yaml);
                out.out().flush();
            } else {
                ConfigFiles.write(yaml, file);
                out.note("wrote " + file);
            }
        }
    }

    @Command(
            name = "setup",
            description = "The computer's fields, as `computer setup --config FILE` reads them (change the label to"
                    + " make a copy).")
    static final class Setup extends Export {
        @Override
        JsonNode fields(JsonNode computer) {
            return ComputerFields.of(computer);
        }
    }

    @Command(
            name = "config",
            description =
                    "The computer's transport parameters, as `computer configure LABEL --config FILE` reads them.")
    static final class Config extends Export {
        @Override
        JsonNode fields(JsonNode computer) {
            JsonNode params = computer.path("settings").path("transport_params");
            return params.isObject() ? params : JsonTrees.object();
        }
    }
}
