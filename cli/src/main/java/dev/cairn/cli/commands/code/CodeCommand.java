package dev.cairn.cli.commands.code;

import java.nio.file.Path;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.config.ConfigFiles;
import dev.cairn.cli.options.Prompts;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

/** {@code cairn code ...}: the executables calculation jobs run, installed on a computer or portable. */
@Command(
        name = "code",
        description = "The executables calculation jobs run: installed on a computer, or portable (uploaded files).",
        subcommands = {
            CodeCreate.class,
            CodeCommand.ListCodes.class,
            CodeCommand.Show.class,
            CodeCommand.Delete.class,
            CodeCommand.Export.class
        })
public final class CodeCommand {

    static final String REF = "The code: label@computer, a label only one code has, or its uuid (or a prefix).";

    static String path(String ref) {
        return "/api/v1/codes/" + CairnClient.segment(ref);
    }

    @Command(name = "list", description = "List the codes, oldest first.")
    static final class ListCodes implements Runnable {

        @Mixin
        Session session;

        @Option(
                names = {"-Y", "--computer"},
                paramLabel = "COMPUTER",
                description = "Only the codes installed on this computer.")
        String computer;

        @Override
        public void run() {
            ArrayNode codes = JsonTrees.MAPPER.createArrayNode();
            String cursor = null;
            do {
                String query = "?limit=100" + (computer == null ? "" : "&computer=" + CairnClient.param(computer))
                        + (cursor == null ? "" : "&cursor=" + CairnClient.param(cursor));
                JsonNode page = session.client().get("/api/v1/codes" + query);
                page.path("items").forEach(codes::add);
                cursor = JsonTrees.text(page, "next", null);
            } while (cursor != null);
            Output out = session.output();
            if (out.json()) {
                out.print(codes);
                return;
            }
            if (codes.isEmpty()) {
                out.note("no codes; make one: cairn code create --label L --computer C --filepath-executable PATH");
                return;
            }
            TextTable table = TextTable.of("FULL LABEL", "KIND", "EXECUTABLE", "PLUGIN", "CREATED", "UUID");
            for (JsonNode c : codes) {
                table.row(
                        c.path("fullLabel").asString(),
                        c.path("kind").asString(),
                        c.path("executable").asString(),
                        JsonTrees.text(c, "defaultCalcJobPlugin", ""),
                        out.ago(JsonTrees.text(c, "ctime", null)),
                        c.path("uuid").asString());
            }
            out.print(table);
        }
    }

    @Command(name = "show", description = "Show a code.")
    static final class Show implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "CODE", description = REF)
        String ref;

        @Override
        public void run() {
            JsonNode c = session.client().get(path(ref));
            Output out = session.output();
            if (out.json()) {
                out.print(c);
                return;
            }
            TextTable table = TextTable.of("FIELD", "VALUE");
            for (var field : c.properties()) {
                JsonNode value = field.getValue();
                table.row(field.getKey(), value.isString() ? value.asString() : JsonTrees.compact(value));
            }
            out.print(table);
        }
    }

    @Command(
            name = "delete",
            description = {
                "Delete a code no process used (one that was used is part of their provenance).",
                "Asks first on a terminal; elsewhere needs --force."
            })
    static final class Delete implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "CODE", description = REF)
        String ref;

        @Option(
                names = {"-f", "--force"},
                description = "Do not ask.")
        boolean force;

        @Override
        public void run() {
            Output out = session.output();
            JsonNode code = session.client().get(path(ref));
            String name = code.path("fullLabel").asString();
            if (!Prompts.of(true, out.err()).confirm("delete code '" + name + "'", force)) {
                out.note("nothing deleted");
                return;
            }
            session.client().delete(path(code.path("uuid").asString()));
            out.note("deleted code '" + name + "'");
        }
    }

    @Command(
            name = "export",
            description =
                    "Write a code's fields as YAML that `code create --config FILE` reads (a portable code's files"
                            + " are not in it: give --filepath-files again).")
    static final class Export implements Runnable {

        @Mixin
        Session session;

        @Parameters(index = "0", paramLabel = "CODE", description = REF)
        String ref;

        @Parameters(
                index = "1",
                arity = "0..1",
                paramLabel = "FILE",
                description = "Where to write (default: standard output).")
        Path file;

        @Override
        public void run() {
            ObjectNode fields = CodeFields.of(session.client().get(path(ref)));
            Output out = session.output();
            if (out.json()) {
                out.print(fields);
                return;
            }
            String yaml = ConfigFiles.yaml(fields);
            if (file == null) {
                out.out().print(yaml);
                out.out().flush();
            } else {
                ConfigFiles.write(yaml, file);
                out.note("wrote " + file);
            }
        }
    }
}
