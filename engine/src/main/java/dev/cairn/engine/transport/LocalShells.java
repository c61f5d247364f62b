package dev.cairn.engine.transport;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The {@link LocalShell}s that run commands on this machine, kept between commands: idle ones
 * per environment, each taken by one command at a time. They belong to whoever made this (a
 * {@link TransportPool}, or a {@link LocalTransport} made on its own), and {@link #close}
 * ends every one of them, idle or busy: no shell outlives its owner, and an engine closed and
 * opened again in one JVM starts afresh.
 */
final class LocalShells implements AutoCloseable {

    /** Idle shells kept per environment; more are ended when given back. */
    private static final int MAX_IDLE = 8;

    private final String owner;
    private final Map<Map<String, String>, Deque<LocalShell>> idle = new ConcurrentHashMap<>();
    /** Every shell started and not ended, idle or running a command. */
    private final Set<LocalShell> live = ConcurrentHashMap.newKeySet();

    private volatile boolean closed;

    /** @param owner what keeps these shells, for the error of a use after {@link #close} */
    LocalShells(String owner) {
        this.owner = owner;
    }

    /**
     * Runs {@code command} with {@code /bin/sh} semantics in {@code workdir}, no input, with the JVM's
     * environment plus {@code environment}, on an idle shell or a new one.
     */
    CommandResult run(String command, Path workdir, Map<String, String> environment, Duration timeout) {
        requireOpen(command);
        LocalShell shell = idleOf(environment).pollFirst();
        if (shell != null) {
            try {
                return runAndGiveBack(shell, command, workdir, timeout);
            } catch (LocalShell.ShellGone e) {
                // it ended while idle (killed from outside) before the command was given: a new one runs it
            }
        }
        shell = start(command, workdir, environment);
        try {
            return runAndGiveBack(shell, command, workdir, timeout);
        } catch (LocalShell.ShellGone e) {
            throw new TransportException(
                    "/bin/sh on this machine ended before it could run " + Commands.describe(command),
                    true,
                    e.getCause());
        }
    }

    private LocalShell start(String command, Path workdir, Map<String, String> environment) {
        LocalShell shell;
        try {
            shell = new LocalShell(environment);
        } catch (IOException e) {
            throw Failures.local(
                    "cannot start /bin/sh for " + Commands.describe(command) + " on this machine",
                    workdir.toString(),
                    e);
        }
        live.add(shell);
        // close() may have run since requireOpen: it sets the flag before it ends the live shells,
        // so either it saw this one or this sees the flag
        if (closed) {
            end(shell);
            requireOpen(command);
        }
        return shell;
    }

    private CommandResult runAndGiveBack(LocalShell shell, String command, Path workdir, Duration timeout)
            throws LocalShell.ShellGone {
        boolean reusable = false;
        try {
            CommandResult result = shell.execute(command, workdir, timeout);
            reusable = true;
            return result;
        } finally {
            if (reusable) {
                giveBack(shell);
            } else {
                end(shell);
            }
        }
    }

    private void giveBack(LocalShell shell) {
        Deque<LocalShell> shells = idleOf(shell.environment());
        if (closed || shells.size() >= MAX_IDLE) {
            end(shell);
            return;
        }
        shells.offerFirst(shell);
        // close() may have emptied the idle shells meanwhile: end this one as it would have
        if (closed && shells.remove(shell)) {
            end(shell);
        }
    }

    private Deque<LocalShell> idleOf(Map<String, String> environment) {
        return idle.computeIfAbsent(environment, e -> new ConcurrentLinkedDeque<>());
    }

    private void end(LocalShell shell) {
        live.remove(shell);
        shell.close();
    }

    private void requireOpen(String command) {
        if (closed) {
            throw new TransportException(
                    "cannot run " + Commands.describe(command) + " on this machine: the shells of " + owner
                            + " are closed",
                    false,
                    null);
        }
    }

    /**
     * Ends every shell: an idle one at once, a busy one once its command ends, or killed with
     * what it runs after two seconds; their folders are removed. Closing again does nothing.
     */
    @Override
    public void close() {
        closed = true;
        idle.values().forEach(Deque::clear);
        for (LocalShell shell : live) {
            end(shell);
        }
    }
}
