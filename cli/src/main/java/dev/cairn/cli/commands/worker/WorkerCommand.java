package dev.cairn.cli.commands.worker;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.local.LocalRun;
import dev.cairn.cli.local.LocalWorkers;
import dev.cairn.cli.local.Readiness;
import dev.cairn.cli.local.ServerJar;
import dev.cairn.cli.local.ServerSettings;
import dev.cairn.cli.options.DataDirOption;
import dev.cairn.cli.options.LogOptions;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

/**
 * {@code cairn worker start|stop|status|logs}: worker JVMs on this host, each the server jar with
 * {@code --cairn.roles=worker}, numbered, with a pid file and log of its own under
 * {@code <data-dir>/workers}. They take the settings {@code cairn server start} kept for the data
 * directory, so they use the server's database and broker; an embedded server's, whose ports change
 * at every start, from the file it publishes them in while they run.
 */
@Command(
        name = "worker",
        description = {
            "Worker JVMs on this host, which run the steps of processes: start more, stop some, list, logs.",
            "Each is the server jar with --cairn.roles=worker, with the settings `cairn server start` was given;"
                    + " pid files and logs are in <data-dir>/workers.",
            "With an embedded server (`cairn up`, `cairn server start --embedded`) they use its database and"
                    + " broker, and stop with it."
        },
        subcommands = {
            WorkerCommand.Start.class,
            WorkerCommand.Stop.class,
            WorkerCommand.Status.class,
            WorkerCommand.Logs.class
        })
public final class WorkerCommand {

    @Command(
            name = "start",
            description = {
                "Start N more workers (default 1) and wait until each has started.",
                "Settings given here (--cairn.worker.slots=8) add to those the server was started with."
            })
    static final class Start implements Callable<Integer> {

        @Mixin
        Session session;

        @Mixin
        DataDirOption dataDir;

        @Parameters(index = "0", arity = "0..1", paramLabel = "N", description = "How many (default: 1).")
        Integer count;

        @Option(
                names = "--wait",
                paramLabel = "SECONDS",
                defaultValue = "180",
                description = "How long to wait for each to start (default: ${DEFAULT-VALUE}).")
        int waitSeconds;

        @Unmatched
        List<String> extra;

        @Override
        public Integer call() {
            int n = count == null ? 1 : count;
            if (n < 1 || n > 64) {
                throw CliException.usage("N: " + n + " workers? give 1 to 64");
            }
            Output out = session.output();
            Path dir = dataDir.dataDir(session);
            List<String> saved = ServerSettings.saved(dir);
            List<String> settings = new ArrayList<>(
                    saved.stream().filter(s -> !s.startsWith("#")).toList());
            if (ServerSettings.embedded(dir)) {
                settings = ServerSettings.overriding(settings, embeddedServices(dir));
            }
            settings = ServerSettings.overriding(settings, ServerSettings.parse(extra, "cairn worker start"));
            Map<String, String> env = ServerSettings.environment(session.env());
            if (!ServerSettings.given(settings, env, "cairn.database.url", "CAIRN_DATABASE_URL")
                    || !ServerSettings.given(settings, env, "cairn.broker.uri", "CAIRN_BROKER_URI")) {
                throw CliException.usage("no database or broker for the workers: start the server first with"
                        + " `cairn server start` or `cairn up` (its settings are kept for them), or give"
                        + " --cairn.database.url=... and --cairn.broker.uri=...");
            }
            ServerJar jar = ServerJar.find(session.env());
            List<Integer> running = LocalRun.workers(dir);
            int next = running.isEmpty() ? 1 : running.getLast() + 1;
            List<String> args = new ArrayList<>();
            args.add("--cairn.data-dir=" + dir);
            args.add("--cairn.roles=worker");
            args.add("--server.port=0");
            args.addAll(settings);
            List<String> command = jar.command(session.env(), args, true, out::note);
            List<Map.Entry<LocalRun, ProcessHandle>> started = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                LocalRun run = LocalRun.worker(dir, next + i);
                started.add(Map.entry(run, run.start(command, env)));
            }
            out.note("Starting " + n + " worker" + (n == 1 ? "" : "s") + " ...");
            ArrayNode json = JsonTrees.MAPPER.createArrayNode();
            for (Map.Entry<LocalRun, ProcessHandle> worker : started) {
                try {
                    Readiness.awaitWorker(worker.getValue(), worker.getKey(), Duration.ofSeconds(waitSeconds));
                } catch (CliException e) {
                    // nothing half done: the others of this start stop too
                    for (Map.Entry<LocalRun, ProcessHandle> other : started) {
                        other.getValue().destroy();
                        LocalRun.awaitExit(other.getValue(), Duration.ofSeconds(60));
                        other.getKey().forget();
                    }
                    throw e;
                }
                json.add(view(worker.getKey(), worker.getValue()));
                out.note("Started " + worker.getKey().name() + " (pid "
                        + worker.getValue().pid() + ").");
            }
            if (out.json()) {
                out.print(json);
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "stop",
            description = {
                "Stop workers: all of them (also --all), or the N started last. Each gets SIGTERM, lets its"
                        + " running steps finish (cairn.worker.shutdown-grace) and is waited for (--timeout)."
            })
    static final class Stop implements Callable<Integer> {

        @Mixin
        Session session;

        @Mixin
        DataDirOption dataDir;

        @Parameters(
                index = "0",
                arity = "0..1",
                paramLabel = "N",
                description = "How many, the last started first (default: all).")
        Integer count;

        @Option(names = "--all", description = "Stop all workers (the default).")
        boolean all;

        @Override
        public Integer call() {
            if (count != null && all) {
                throw CliException.usage("give N or --all, not both");
            }
            if (count != null && count < 1) {
                throw CliException.usage("N: " + count + " workers? give 1 or more");
            }
            Path dir = dataDir.dataDir(session);
            List<ProcessHandle> left = LocalWorkers.stop(dir, count, session.timeout(), session.output());
            if (!left.isEmpty()) {
                throw LocalWorkers.notStopped(left, session.timeout());
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "status", description = "The workers that run on this host: number, pid, uptime, log.")
    static final class Status implements Callable<Integer> {

        @Mixin
        Session session;

        @Mixin
        DataDirOption dataDir;

        @Override
        public Integer call() {
            Output out = session.output();
            Path dir = dataDir.dataDir(session);
            ArrayNode json = JsonTrees.MAPPER.createArrayNode();
            TextTable table = TextTable.of("WORKER", "PID", "STARTED", "LOG").alignRight("WORKER", "PID");
            for (int n : LocalRun.workers(dir)) {
                LocalRun run = LocalRun.worker(dir, n);
                Optional<ProcessHandle> process = run.process();
                if (process.isEmpty()) {
                    continue;
                }
                ObjectNode worker = view(run, process.get());
                worker.put("worker", n);
                json.add(worker);
                table.row(
                        n,
                        process.get().pid(),
                        LocalRun.started(process.get())
                                .map(s -> out.ago(s.toString()))
                                .orElse(""),
                        run.log());
            }
            if (out.json()) {
                out.print(json);
            } else if (table.isEmpty()) {
                out.note("No workers run for " + dir + ": `cairn worker start`.");
            } else {
                out.print(table);
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "logs",
            description = "Print the end of a worker's log (the last started when no number is given); -f follows it.")
    static final class Logs implements Callable<Integer> {

        @Mixin
        Session session;

        @Mixin
        DataDirOption dataDir;

        @Parameters(index = "0", arity = "0..1", paramLabel = "WORKER", description = "The worker's number.")
        Integer worker;

        @Mixin
        LogOptions log;

        @Override
        public Integer call() {
            Path dir = dataDir.dataDir(session);
            int n;
            if (worker != null) {
                n = worker;
            } else {
                List<Integer> running = LocalRun.workers(dir);
                if (running.isEmpty()) {
                    throw new CliException(
                            ExitCodes.NOT_FOUND,
                            "no workers run for " + dir,
                            "name a stopped one's number to read its log");
                }
                n = running.getLast();
            }
            return log.print(session, LocalRun.worker(dir, n));
        }
    }

    /**
     * The settings of the embedded database and broker of the server of {@code dir}, which it publishes
     * while they run; refused when it does not run, as its services run only in it.
     */
    private static List<String> embeddedServices(Path dir) {
        Optional<List<String>> published = ServerSettings.published(dir);
        Optional<ProcessHandle> server = LocalRun.server(dir).process();
        if (published.isEmpty() || server.isEmpty()) {
            throw new CliException(
                    ExitCodes.UNAVAILABLE,
                    "the server of " + dir + " does not run: in the embedded mode its workers use the database"
                            + " and broker it runs",
                    "start the server first: `cairn up` or `cairn server start --embedded`");
        }
        return published.get();
    }

    private static ObjectNode view(LocalRun run, ProcessHandle process) {
        ObjectNode json = JsonTrees.object();
        json.put("name", run.name());
        json.put("pid", process.pid());
        json.put("startedAt", LocalRun.started(process).map(Instant::toString).orElse(null));
        json.put("log", run.log().toString());
        return json;
    }
}
