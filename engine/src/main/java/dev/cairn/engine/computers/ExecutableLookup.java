package dev.cairn.engine.computers;

import java.time.Duration;
import java.util.Objects;

import dev.cairn.engine.internal.calcjob.ComputerAccess;
import dev.cairn.engine.transport.CommandResult;
import dev.cairn.engine.transport.PosixPaths;
import dev.cairn.storage.errors.CairnException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.UnavailableException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.visibility.Internal;

/**
 * Finds a program on a computer as aiida-shell's {@code which} does when it makes the code of a
 * command: the absolute path the computer's shell would run for a name ({@code wc} →
 * {@code /usr/bin/wc}), or a path given as one when it is an executable file there. A program the
 * computer does not have is refused, saying so, before a job is stored for it.
 */
public final class ExecutableLookup {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final ComputerAccess access;

    @Internal
    public ExecutableLookup(ComputerAccess access) {
        this.access = Objects.requireNonNull(access, "access");
    }

    /**
     * The absolute path of {@code program} on {@code computer}.
     *
     * @throws InvalidInputException when the computer has no such program (or it is not executable)
     * @throws UnavailableException when the computer cannot be reached
     */
    public String locate(Computer computer, String program) {
        if (program == null || program.isBlank() || program.indexOf('\0') >= 0 || program.indexOf('\n') >= 0) {
            throw new InvalidInputException("'" + program + "' is not a program name");
        }
        String quoted = PosixPaths.quote(program);
        // which finds files only; command -v is POSIX but names a builtin ('echo') without a path
        String command = "which " + quoted + " 2>/dev/null || command -v " + quoted;
        CommandResult result;
        try {
            result = access.withTransport(computer, transport -> transport.exec(command, null, TIMEOUT));
        } catch (CairnException e) {
            throw e;
        } catch (Exception e) {
            throw new UnavailableException(
                    "looking for '" + program + "' on computer '" + computer.label() + "': " + e.getMessage(), e);
        }
        String path = result.ok() ? result.stdout().strip().lines().findFirst().orElse("") : "";
        if (!path.startsWith("/")) {
            throw new InvalidInputException("command '" + program + "' was not found on computer '" + computer.label()
                    + "'" + (program.startsWith("/") ? " (no executable file there)" : " (not on its PATH)")
                    + ": install it there, or give its absolute path");
        }
        return path;
    }
}
