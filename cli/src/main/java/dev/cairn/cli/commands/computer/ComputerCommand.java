package dev.cairn.cli.commands.computer;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.Prompts;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

/** {@code cairn computer ...}: the computers calculation jobs run on, as verdi computer. */
@Command(
        name = "computer",
        description = "The computers calculation jobs run on: set up, configure, test, list, enable, delete.",
        subcommands = {
            ComputerSetup.class,
            ComputerConfigure.class,
            ComputerCommand.Test.class,
            ComputerCommand.ListComputers.class,
            ComputerCommand.Show.class,
            ComputerCommand.Enable.class,
            ComputerCommand.Disable.class,
            ComputerCommand.Delete.class,
            ComputerExport.class
        })
public final class ComputerCommand {

    @Command(
            name = "test",
            description = {
                "Run the server's checks of a computer (settings, connection, whoami, output, work directory,"
                        + " scheduler) and print each as ok or failed.",
                "Exits 1 when a check fails."
            })
    static final class Test implements Callable<Integer> {

        @Mixin
        Session session;

        @Parameters(paramLabel = "LABEL", description = "The computer's label or uuid.")
        String label;

        @Override
        public Integer call() {
            Output out = session.output();
            out.note("testing computer '" + label + "' ...");
            JsonNode report = session.client().post(ComputerFields.path(label) + "/test", JsonTrees.object());
            boolean ok = report.path("ok").asBoolean();
            if (out.json()) {
                out.print(report);
            } else {
                TextTable table =
                        TextTable.of("CHECK", "RESULT", "MS", "MESSAGE").alignRight("MS");
                for (JsonNode check : report.path("checks")) {
                    boolean passed = check.path("ok").asBoolean();
                    table.row(
                            check.path("name").asString(),
                            passed ? out.style().good("ok") : out.style().bad("failed"),
                            String.format("%.1f", check.path("millis").asDouble()),
                            JsonTrees.text(check, "message", ""));
                }
                out.print(table);
                out.note(ok ? "all checks passed" : "a check failed");
            }
            return ok ? ExitCodes.OK : ExitCodes.FAILED;
        }
    }

    @Command(name = "list", description = "List the computers enabled for you (with -a, the disabled ones too).")
    static final class ListComputers implements Runnable {

        @Mixin
        Session session;

        @Option(
                names = {"-a", "--all"},
                description = "Include the computers disabled for you.")
        boolean all;

        @Override
        public void run() {
            Output out = session.output();
            ArrayNode shown = JsonTrees.MAPPER.createArrayNode();
            for (JsonNode computer : session.client().get("/api/v1/computers").path("items")) {
                if (all || computer.path("enabled").asBoolean(true)) {
                    shown.add(computer);
                }
            }
            if (out.json()) {
                out.print(shown);
                return;
            }
            if (shown.isEmpty()) {
                out.note(
                        all ? "no computers; set one up: cairn computer setup" : "no enabled computers (-a shows all)");
                return;
            }
            TextTable table = TextTable.of("LABEL", "HOSTNAME", "TRANSPORT", "SCHEDULER", "ENABLED", "NODES")
                    .alignRight("NODES");
            for (JsonNode c : shown) {
                table.row(
                        c.path("label").asString(),
                        c.path("hostname").asString(),
                        c.path("transportType").asString(),
                        c.path("schedulerType").asString(),
                        c.path("enabled").asBoolean() ? "yes" : "no",
                        c.path("nodes").asLong());
            }
            out.print(table);
        }
    }

    @Command(name = "show", description = "Show a computer: its settings, for whom it is enabled, the nodes naming it.")
    static final class Show implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "LABEL", description = "The computer's label or uuid.")
        String label;

        @Override
        public void run() {
            JsonNode c = session.client().get(ComputerFields.path(label));
            Output out = session.output();
            if (out.json()) {
                out.print(c);
                return;
            }
            TextTable table = TextTable.of("FIELD", "VALUE");
            table.row("label", c.path("label").asString());
            table.row("uuid", c.path("uuid").asString());
            table.row("hostname", c.path("hostname").asString());
            table.row("description", JsonTrees.text(c, "description", ""));
            table.row("transport", c.path("transportType").asString());
            table.row("scheduler", c.path("schedulerType").asString());
            for (var setting : c.path("settings").properties()) {
                JsonNode value = setting.getValue();
                table.row(setting.getKey(), value.isString() ? value.asString() : JsonTrees.compact(value));
            }
            table.row("enabled", c.path("enabled").asBoolean() ? "yes (for you)" : "no (for you)");
            for (JsonNode user : c.path("users")) {
                table.row(
                        "  " + user.path("user").asString(),
                        user.path("enabled").asBoolean() ? "enabled" : "disabled");
            }
            table.row("nodes", c.path("nodes").asLong());
            out.print(table);
        }
    }

    /** Enable and disable differ only in the word. */
    abstract static class Access implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "LABEL", description = "The computer's label or uuid.")
        String label;

        @Option(names = "--user", paramLabel = "EMAIL", description = "For this user (default: you, the token's user).")
        String user;

        abstract String verb();

        @Override
        public void run() {
            ObjectNode body = JsonTrees.object();
            if (user != null) {
                body.put("user", user);
            }
            JsonNode access = session.client().post(ComputerFields.path(label) + "/" + verb(), body);
            Output out = session.output();
            if (out.json()) {
                out.print(access);
            } else {
                out.line("computer '" + access.path("computer").asString() + "' "
                        + (access.path("enabled").asBoolean() ? "enabled" : "disabled") + " for "
                        + access.path("user").asString());
            }
        }
    }

    @Command(name = "enable", description = "Enable a computer for you (or --user): jobs may run on it.")
    static final class Enable extends Access {
        @Override
        String verb() {
            return "enable";
        }
    }

    @Command(
            name = "disable",
            description = "Disable a computer for you (or --user); other users keep it. `list -a` still shows it.")
    static final class Disable extends Access {
        @Override
        String verb() {
            return "disable";
        }
    }

    @Command(
            name = "delete",
            description = {
                "Delete a computer no node names: codes installed on it and jobs that ran on it keep it.",
                "Asks first on a terminal; elsewhere needs --force."
            })
    static final class Delete implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "LABEL", description = "The computer's label or uuid.")
        String label;

        @Option(
                names = {"-f", "--force"},
                description = "Do not ask.")
        boolean force;

        @Override
        public void run() {
            Output out = session.output();
            JsonNode computer = session.client().get(ComputerFields.path(label));
            long nodes = computer.path("nodes").asLong();
            if (nodes > 0) {
                throw inUse(label, nodes, null);
            }
            if (!Prompts.of(true, out.err()).confirm("delete computer '" + label + "'", force)) {
                out.note("nothing deleted");
                return;
            }
            try {
                session.client().delete(ComputerFields.path(label));
            } catch (CliException e) {
                if (e.exitCode() == ExitCodes.CONFLICT) {
                    throw inUse(label, -1, e);
                }
                throw e;
            }
            out.note("deleted computer '" + label + "'");
        }

        private static CliException inUse(String label, long nodes, CliException cause) {
            return new CliException(
                    ExitCodes.CONFLICT,
                    "computer '" + label + "' is in use"
                            + (nodes > 0
                                    ? " by " + nodes + " node" + (nodes == 1 ? "" : "s")
                                    : cause != null ? ": " + cause.getMessage() : "")
                            + " (codes installed on it, jobs that ran on it) and is not deleted",
                    "disable it instead: cairn computer disable " + label + "; codes that no process used go with"
                            + " cairn code delete",
                    cause);
        }
    }
}
