package dev.cairn.cli.commands.up;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;
import sun.misc.Signal;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.local.LocalRun;
import dev.cairn.cli.local.LocalWorkers;
import dev.cairn.cli.local.Readiness;
import dev.cairn.cli.local.ServerJar;
import dev.cairn.cli.local.ServerSettings;
import dev.cairn.cli.local.ServerUrl;
import dev.cairn.cli.options.DataDirOption;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;

/**
 * {@code cairn up}: Cairn on this machine in one command. The server jar in the embedded mode (its own
 * PostgreSQL and broker under the data directory) with the demo, in the foreground, with the start-up
 * cache; Ctrl-C (or SIGTERM) is passed to the server, which stops everything, and this waits for it.
 * Workers started against it ({@code cairn worker start}) use its embedded services, so they stop first.
 */
@Command(
        name = "up",
        description = {
            "Run Cairn on this machine in the foreground: the server with its own PostgreSQL and broker under"
                    + " the data directory, and the demo; Ctrl-C stops everything.",
            "Other commands in another terminal find it with no profile: its URL (server.url) and admin token are in"
                    + " its data directory; with another --data-dir it prints what to export.",
            "Server settings (the documentation's \"Settings\") pass through as --cairn.x=y. CAIRN_AOT=off runs without the"
                    + " start-up cache; CAIRN_SERVER_JAVA_OPTS adds JVM options."
        })
public final class UpCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Mixin
    DataDirOption dataDir;

    @Option(names = "--port", paramLabel = "PORT", description = "The HTTP port (default: $CAIRN_PORT, else 8080).")
    Integer port;

    @Option(names = "--no-demo", description = "Do not run the demo.")
    boolean noDemo;

    @Unmatched
    List<String> extra;

    @Override
    public Integer call() {
        Output out = session.output();
        List<String> settings = ServerSettings.parse(extra, "cairn up");
        Path dir = dataDir.dataDir(session);
        LocalRun run = LocalRun.server(dir);
        Optional<ProcessHandle> running = run.process();
        if (running.isPresent()) {
            throw new CliException(
                    ExitCodes.CONFLICT,
                    "a server runs on " + dir + " already (pid " + running.get().pid() + ")",
                    "use it, or stop it first (`cairn server stop`), or give another --data-dir");
        }
        int httpPort = ServerSettings.port(port, session.env());
        ServerSettings.checkPortFree(httpPort);
        ServerJar jar = ServerJar.find(session.env());
        boolean embedded = !ServerSettings.given(settings, session.env(), "cairn.database.url", "CAIRN_DATABASE_URL")
                || !ServerSettings.given(settings, session.env(), "cairn.broker.uri", "CAIRN_BROKER_URI");
        if (embedded) {
            LocalWorkers.stopLeftOver(dir, session.timeout(), out);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "cannot make the data directory " + dir, null, e);
        }
        List<String> args = new ArrayList<>();
        args.add("--cairn.data-dir=" + dir);
        args.add("--server.port=" + httpPort);
        if (!noDemo) {
            args.add("--cairn.demo=true");
        }
        args.addAll(settings);
        List<String> command = jar.command(session.env(), args, true, out::note);
        out.note("Starting Cairn: data directory " + dir + ", port " + httpPort + "; Ctrl-C stops it.");
        List<String> exports = dataDir.exports(session);
        if (!exports.isEmpty()) {
            out.note("In another terminal, for the other commands: export " + String.join(" ", exports));
        }
        // for `cairn worker start` and `cairn db migrate`, as `cairn server start` keeps them
        ServerSettings.save(dir, settings, embedded);
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().clear();
        builder.environment().putAll(ServerSettings.environment(session.env()));
        Process server;
        try {
            server = builder.start();
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "cannot start the server: " + e.getMessage(), null, e);
        }
        run.record(server.pid());
        ServerUrl.write(dir, URI.create("http://127.0.0.1:" + httpPort));
        Runnable stopWorkers = embedded ? workerStop(dir) : () -> {};
        forward("INT", server, stopWorkers);
        forward("TERM", server, stopWorkers);
        try {
            while (true) {
                try {
                    return server.waitFor();
                } catch (InterruptedException e) {
                    // the signal handlers pass signals on; this waits for the server to end
                }
            }
        } finally {
            stopWorkers.run(); // a server that ended by itself took their services too
            run.forget();
            ServerUrl.forget(dir);
        }
    }

    /** Stops the workers of {@code dir}, once: they lose their database and broker with the server. */
    private Runnable workerStop(Path dir) {
        Output out = session.output();
        AtomicBoolean done = new AtomicBoolean();
        return () -> {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            List<ProcessHandle> left = LocalWorkers.stopBeforeServer(dir, session.timeout(), out);
            if (!left.isEmpty()) {
                out.note("Workers still run: " + Readiness.pids(left) + "; `cairn worker stop` when they"
                        + " have finished their steps.");
            }
        };
    }

    /**
     * Passes {@code signal} on to the server instead of ending this JVM, so that this waits until the
     * server has stopped; {@code first} runs before (the workers stop). A terminal's Ctrl-C reaches both
     * (not the workers, which run in sessions of their own); the server takes a second one calmly. Where
     * the signal is ignored (a background job), there is nothing to pass on.
     */
    private static void forward(String signal, Process server, Runnable first) {
        try {
            Signal.handle(new Signal(signal), s -> {
                first.run();
                send(signal, server.pid());
            });
        } catch (IllegalArgumentException ignored) {
            // ignored by this process's parent, so by the server too
        }
    }

    private static void send(String signal, long pid) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        } catch (IOException e) {
            // the server has ended: nothing to pass on
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
