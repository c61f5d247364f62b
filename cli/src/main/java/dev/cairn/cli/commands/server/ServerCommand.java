package dev.cairn.cli.commands.server;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.local.LocalRun;
import dev.cairn.cli.local.LocalWorkers;
import dev.cairn.cli.local.Readiness;
import dev.cairn.cli.local.ServerJar;
import dev.cairn.cli.local.ServerSettings;
import dev.cairn.cli.local.ServerUrl;
import dev.cairn.cli.options.DataDirOption;
import dev.cairn.cli.options.LogOptions;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.RelativeTime;

/**
 * {@code cairn server start|stop|status|logs}: the server on this host as a background process, with
 * its pid file ({@code server.pid}), log ({@code server.log}) and URL ({@code server.url}) in its data
 * directory. It runs the server jar; nothing of the server is linked here.
 */
@Command(
        name = "server",
        description = {
            "The Cairn server on this host, in the background: start, stop, status, logs.",
            "Its pid file and log are in its data directory. `cairn up` runs it in the foreground instead."
        },
        subcommands = {
            ServerCommand.Start.class,
            ServerCommand.Stop.class,
            ServerCommand.Status.class,
            ServerCommand.Logs.class
        })
public final class ServerCommand {

    @Command(
            name = "start",
            description = {
                "Start the server in the background and wait until it is ready; print its URL.",
                "It uses an external PostgreSQL and RabbitMQ, given as settings"
                        + " (--cairn.database.url=jdbc:postgresql://... --cairn.broker.uri=amqp://...) or as"
                        + " CAIRN_DATABASE_URL and CAIRN_BROKER_URI, or with --embedded its own under the data"
                        + " directory. Other server settings (the documentation's \"Settings\") pass through as"
                        + " --cairn.x=y. Workers started with `cairn worker start` get the same settings."
            })
    static final class Start implements Callable<Integer> {

        @Mixin
        Session session;

        @Mixin
        DataDirOption dataDir;

        @Option(names = "--port", paramLabel = "PORT", description = "The HTTP port (default: $CAIRN_PORT, else 8080).")
        Integer port;

        @Option(
                names = "--embedded",
                description = "Run the server's own PostgreSQL and broker under the data directory.")
        boolean embedded;

        @Option(
                names = "--wait",
                paramLabel = "SECONDS",
                defaultValue = "180",
                description = "How long to wait until it is ready (default: ${DEFAULT-VALUE}).")
        int waitSeconds;

        @Unmatched
        List<String> extra;

        @Override
        public Integer call() {
            Output out = session.output();
            List<String> settings = ServerSettings.parse(extra, "cairn server start");
            if (!embedded
                    && (!ServerSettings.given(settings, session.env(), "cairn.database.url", "CAIRN_DATABASE_URL")
                            || !ServerSettings.given(
                                    settings, session.env(), "cairn.broker.uri", "CAIRN_BROKER_URI"))) {
                throw CliException.usage("no database or broker given: pass --cairn.database.url=jdbc:postgresql://..."
                        + " and --cairn.broker.uri=amqp://... (or set CAIRN_DATABASE_URL and CAIRN_BROKER_URI), or"
                        + " --embedded for the server's own");
            }
            Path dir = dataDir.dataDir(session);
            LocalRun run = LocalRun.server(dir);
            Optional<ProcessHandle> running = run.process();
            if (running.isPresent()) {
                URI url = ServerUrl.read(dir).orElse(null);
                out.note("The server of " + dir + " already runs (pid "
                        + running.get().pid() + ")" + (url == null ? "" : " at " + url) + ".");
                print(out, running.get(), url, dir, run);
                return ExitCodes.OK;
            }
            int httpPort = ServerSettings.port(port, session.env());
            ServerSettings.checkPortFree(httpPort);
            ServerJar jar = ServerJar.find(session.env());
            if (embedded) {
                LocalWorkers.stopLeftOver(dir, session.timeout(), out);
            }
            List<String> args = new ArrayList<>();
            args.add("--cairn.data-dir=" + dir);
            args.add("--server.port=" + httpPort);
            args.addAll(settings);
            List<String> command = jar.command(session.env(), args, true, out::note);
            ProcessHandle process = run.start(command, ServerSettings.environment(session.env()));
            URI url = URI.create("http://127.0.0.1:" + httpPort);
            ServerUrl.write(dir, url);
            ServerSettings.save(dir, settings, embedded);
            out.note("Starting the server (pid " + process.pid() + ", log " + run.log() + ") ...");
            try {
                Readiness.awaitServer(url, process, run, Duration.ofSeconds(waitSeconds));
            } catch (CliException e) {
                ServerUrl.forget(dir);
                throw e;
            }
            out.note("The server is ready at " + url + ".");
            List<String> exports = dataDir.exports(session);
            if (!exports.isEmpty()) {
                out.note("For the other commands: export " + String.join(" ", exports));
            }
            print(out, process, url, dir, run);
            return ExitCodes.OK;
        }

        private static void print(Output out, ProcessHandle process, URI url, Path dir, LocalRun run) {
            if (out.json()) {
                ObjectNode json = JsonTrees.object();
                json.put("pid", process.pid());
                json.put("url", url == null ? null : url.toString());
                json.put("dataDir", dir.toString());
                json.put("log", run.log().toString());
                out.print(json);
            } else {
                out.line(url == null ? "" : url.toString());
            }
        }
    }

    @Command(
            name = "stop",
            description = {
                "Stop the server: SIGTERM, then wait until it has stopped (running steps finish, the embedded"
                        + " PostgreSQL stops) for --timeout seconds; then say what still runs.",
                "Workers started with `cairn worker start` stop first when the server runs in the embedded mode"
                        + " (they use its database and broker); with an external database and broker they keep"
                        + " running: `cairn worker stop`."
            })
    static final class Stop implements Callable<Integer> {

        @Mixin
        Session session;

        @Mixin
        DataDirOption dataDir;

        @Override
        public Integer call() {
            Output out = session.output();
            Path dir = dataDir.dataDir(session);
            LocalRun run = LocalRun.server(dir);
            Optional<ProcessHandle> running = run.process();
            if (running.isEmpty()) {
                out.note("No server runs for " + dir + ".");
                ServerUrl.forget(dir);
                return ExitCodes.OK;
            }
            ProcessHandle process = running.get();
            if (ServerSettings.embedded(dir)) {
                List<ProcessHandle> left = LocalWorkers.stopBeforeServer(dir, session.timeout(), out);
                if (!left.isEmpty()) {
                    // the server stays, so that the workers can still finish their steps
                    throw LocalWorkers.notStopped(left, session.timeout());
                }
            }
            List<ProcessHandle> tree = LocalRun.leftOf(process);
            long started = System.nanoTime();
            process.destroy();
            Duration timeout = session.timeout();
            boolean stopped = LocalRun.awaitExit(process, timeout);
            List<ProcessHandle> left =
                    tree.stream().filter(ProcessHandle::isAlive).toList();
            if (!stopped || !left.isEmpty()) {
                throw new CliException(
                        ExitCodes.FAILED,
                        "the server did not stop within " + timeout.toSeconds() + " s; still running: "
                                + Readiness.pids(left),
                        "wait longer (--timeout SECONDS), or end it with kill -9 " + process.pid()
                                + " (the next start stops a PostgreSQL it left)");
            }
            run.forget();
            ServerUrl.forget(dir);
            out.note("Stopped the server (pid " + process.pid() + ") in "
                    + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s.");
            int workers = LocalRun.workers(dir).size();
            if (workers > 0) {
                out.note(workers + " worker" + (workers == 1 ? "" : "s") + " still run on the external database"
                        + " and broker: `cairn worker stop`.");
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "status",
            description = {
                "Whether the server of the data directory runs: its pid, URL and uptime.",
                "Exit code 0 when it runs, 6 when not. `cairn status` asks the server how its services are."
            })
    static final class Status implements Callable<Integer> {

        @Mixin
        Session session;

        @Mixin
        DataDirOption dataDir;

        @Override
        public Integer call() {
            Output out = session.output();
            Path dir = dataDir.dataDir(session);
            LocalRun run = LocalRun.server(dir);
            Optional<ProcessHandle> running = run.process();
            ObjectNode json = JsonTrees.object();
            json.put("running", running.isPresent());
            json.put("dataDir", dir.toString());
            if (running.isEmpty()) {
                if (out.json()) {
                    out.print(json);
                } else {
                    out.line("not running (data directory " + dir + ")");
                }
                return ExitCodes.UNAVAILABLE;
            }
            ProcessHandle process = running.get();
            URI url = ServerUrl.read(dir).orElse(null);
            Optional<Instant> since = LocalRun.started(process);
            json.put("pid", process.pid());
            json.put("url", url == null ? null : url.toString());
            json.put("startedAt", since.map(Instant::toString).orElse(null));
            json.put(
                    "uptimeSeconds",
                    since.map(s -> Duration.between(s, out.now()).toSeconds()).orElse(null));
            json.put("log", run.log().toString());
            if (out.json()) {
                out.print(json);
            } else {
                out.line("running  pid " + process.pid() + "  " + (url == null ? "" : url + "  ")
                        + since.map(s -> "up "
                                        + RelativeTime.span(
                                                Duration.between(s, out.now()).toSeconds()) + "  ")
                                .orElse("")
                        + "log " + run.log());
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "logs", description = "Print the end of the server's log; with -f, follow it until Ctrl-C.")
    static final class Logs implements Callable<Integer> {

        @Mixin
        Session session;

        @Mixin
        DataDirOption dataDir;

        @Mixin
        LogOptions log;

        @Override
        public Integer call() {
            return log.print(session, LocalRun.server(dataDir.dataDir(session)));
        }
    }
}
