package dev.cairn.e2e.hosts;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.e2e.CairnServerProcess;

/**
 * A Cairn worker on a {@link Host}: the server jar with the role {@code worker}, as {@code cairn
 * worker} runs it, its data directory in the host's folder, the object store and the plugins in
 * folders all hosts share. Ready once Spring says the application started (the worker consumes by
 * then); stopped with SIGTERM (running steps finish, the rest go back to the broker).
 */
public final class WorkerNode implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

    private final Host host;
    private final HostProcess process;

    private WorkerNode(Host host, HostProcess process) {
        this.host = host;
        this.process = process;
    }

    /** What every worker of a lab shares: the jar, the services, the store, and the JVM's options. */
    public record Settings(Path jar, List<String> jvmOptions, Map<String, String> cairn) {

        public Settings {
            jvmOptions = List.copyOf(jvmOptions);
            cairn = Map.copyOf(cairn);
        }

        /** These settings with {@code key} set to {@code value} ({@code cairn.worker.slots}, …). */
        public Settings with(String key, String value) {
            Map<String, String> all = new LinkedHashMap<>(cairn);
            all.put(key, value);
            return new Settings(jar, jvmOptions, all);
        }

        public Settings withJvmOptions(List<String> options) {
            return new Settings(jar, options, cairn);
        }
    }

    /** Starts a worker named {@code name} on {@code host}; {@link #awaitReady()} waits until it consumes. */
    public static WorkerNode start(Host host, String name, Settings settings) {
        List<String> command = new ArrayList<>();
        command.add(CairnServerProcess.java());
        command.addAll(settings.jvmOptions());
        command.add("-jar");
        command.add(settings.jar().toString());
        command.add("--cairn.roles=worker");
        command.add("--cairn.data-dir=" + host.dir().resolve("cairn-" + name));
        // each host has a port space of its own: no two workers meet on one
        command.add("--server.port=8080");
        settings.cairn().forEach((k, v) -> command.add("--" + k + "=" + v));
        return new WorkerNode(host, host.start(name, command));
    }

    /** Waits until Spring has started the application (the worker consumes then). */
    public WorkerNode awaitReady() {
        process.awaitLine(l -> l.contains("Started CairnApplication"), "readiness", READY_TIMEOUT);
        return this;
    }

    /** SIGTERM, and waits for the graceful stop; returns the exit code (143 when stopped by the signal). */
    public int stop() {
        return process.stop(Duration.ofMinutes(1));
    }

    /** SIGKILL: no shutdown hook runs, nothing is acknowledged or handed back. */
    public void kill() {
        process.kill();
    }

    public Host host() {
        return host;
    }

    public HostProcess process() {
        return process;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.close();
    }

    @Override
    public String toString() {
        return process.toString();
    }
}
