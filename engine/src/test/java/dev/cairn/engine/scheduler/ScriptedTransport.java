package dev.cairn.engine.scheduler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import dev.cairn.engine.transport.CommandResult;
import dev.cairn.engine.transport.Transport;

/** A transport that answers commands with replies given in advance and keeps the commands it was asked to run. */
final class ScriptedTransport implements Transport {

    final List<String> commands = new ArrayList<>();
    final List<String> workdirs = new ArrayList<>();
    private final Deque<CommandResult> replies = new ArrayDeque<>();

    ScriptedTransport reply(int exitCode, String stdout, String stderr) {
        replies.add(new CommandResult(exitCode, stdout, stderr));
        return this;
    }

    ScriptedTransport reply(String stdout) {
        return reply(0, stdout, "");
    }

    String onlyCommand() {
        if (commands.size() != 1) {
            throw new AssertionError("expected one command, ran " + commands);
        }
        return commands.getFirst();
    }

    @Override
    public CommandResult exec(String command, String workdir, Duration timeout) {
        commands.add(command);
        workdirs.add(workdir);
        if (replies.isEmpty()) {
            throw new AssertionError("no reply scripted for '" + command + "'");
        }
        return replies.poll();
    }

    @Override
    public void mkdirs(String path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void write(String path, byte[] content) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void put(Path local, String path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public byte[] read(String path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void get(String path, Path local) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean exists(String path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean isDirectory(String path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public List<String> list(String directory) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void remove(String path) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() {}
}
