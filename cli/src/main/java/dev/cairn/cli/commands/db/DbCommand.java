package dev.cairn.cli.commands.db;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Unmatched;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.local.LocalRun;
import dev.cairn.cli.local.ServerJar;
import dev.cairn.cli.local.ServerSettings;
import dev.cairn.cli.options.DataDirOption;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;

/**
 * {@code cairn db status|migrate}: the database schema's version and its migrations (Flyway). The
 * server migrates when it starts; {@code migrate} runs the server jar's one-shot mode
 * ({@code --cairn.migrate-only=true}) for a database no server runs on yet, or after an upgrade.
 */
@Command(
        name = "db",
        description = "The database schema: its version, its migrations, and migrating it.",
        subcommands = {DbCommand.Status.class, DbCommand.Migrate.class})
public final class DbCommand {

    @Command(
            name = "status",
            description = {
                "The schema's version and the migrations applied and pending, as the server sees them.",
                "A running server has migrated at its start, so nothing is pending unless another changed it."
            })
    static final class Status implements Callable<Integer> {

        @Mixin
        Session session;

        @Override
        public Integer call() {
            JsonNode schema = session.client().get("/api/v1/server/schema");
            Output out = session.output();
            if (out.json()) {
                out.print(schema);
                return ExitCodes.OK;
            }
            print(out, schema);
            return ExitCodes.OK;
        }
    }

    static void print(Output out, JsonNode schema) {
        int applied = schema.path("applied").size();
        JsonNode pending = schema.path("pending");
        out.line("schema version " + JsonTrees.text(schema, "version", "none") + ": " + applied + " migration"
                + (applied == 1 ? "" : "s") + " applied, "
                + (pending.isEmpty() ? "none pending" : pending.size() + " pending"));
        for (JsonNode m : pending) {
            out.line("  pending " + JsonTrees.text(m, "version", "?") + "  " + JsonTrees.text(m, "description", ""));
        }
    }

    @Command(
            name = "migrate",
            description = {
                "Apply the pending migrations: the server jar migrates and exits, starting nothing else.",
                "The database is the one of the settings given here (--cairn.database.url=...), else the one"
                        + " `cairn server start` was given for the data directory, else CAIRN_DATABASE_URL, else"
                        + " the embedded one under the data directory. While the data directory's server runs,"
                        + " it has migrated at its start: this asks it and changes nothing."
            })
    static final class Migrate implements Callable<Integer> {

        @Mixin
        Session session;

        @Mixin
        DataDirOption dataDir;

        @Unmatched
        List<String> extra;

        @Override
        public Integer call() {
            Output out = session.output();
            Path dir = dataDir.dataDir(session);
            List<String> settings = ServerSettings.parse(extra, "cairn db migrate");
            Optional<ProcessHandle> running = LocalRun.server(dir).process();
            if (running.isPresent() && settings.isEmpty()) {
                CairnClient client = session.client();
                JsonNode schema = client.get("/api/v1/server/schema");
                if (!schema.path("pending").isEmpty()) {
                    throw new CliException(
                            ExitCodes.CONFLICT,
                            "the server of " + dir + " (pid " + running.get().pid() + ") runs on a schema with"
                                    + " pending migrations",
                            "stop it (`cairn server stop`), then migrate");
                }
                out.note("The server of " + dir + " (pid " + running.get().pid() + ") migrated at its start.");
                print(out, schema);
                return ExitCodes.OK;
            }
            if (settings.isEmpty()) {
                ServerSettings.saved(dir).stream()
                        .filter(s -> !s.startsWith("#"))
                        .forEach(settings::add);
            }
            List<String> args = new ArrayList<>();
            args.add("--cairn.data-dir=" + dir);
            args.add("--cairn.migrate-only=true");
            args.addAll(settings);
            List<String> command = ServerJar.find(session.env()).command(session.env(), args, false, out::note);
            ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
            builder.environment().clear();
            builder.environment().putAll(ServerSettings.environment(session.env()));
            try {
                int exit = builder.start().waitFor();
                return exit == 0 ? ExitCodes.OK : ExitCodes.FAILED;
            } catch (IOException e) {
                throw new CliException(ExitCodes.FAILED, "cannot run the server jar: " + e.getMessage(), null, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(ExitCodes.INTERRUPTED, "interrupted", null, e);
            }
        }
    }
}
