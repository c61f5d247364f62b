package dev.cairn.engine.computers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import dev.cairn.engine.internal.calcjob.ComputerAccess;
import dev.cairn.engine.transport.CommandResult;
import dev.cairn.engine.transport.PosixPaths;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.visibility.Internal;

/**
 * Removes calculation jobs' working folders from their computer, as {@code verdi calcjob cleanworkdir}
 * does, through one connection for all of them (and within the computer's connection limit). Only a
 * folder as the engine makes them is removed: an absolute path of plain names whose last is a job's
 * uuid; any other path is refused, never touched.
 */
public final class WorkdirRemoval {

    /** What became of one folder: removed (or not there), or why not. */
    public record Outcome(String path, String failure) {

        public boolean removed() {
            return failure == null;
        }
    }

    /** Folders a command: well below the shortest ARG_MAX of the systems a cluster runs. */
    static final int CHUNK = 100;

    /** How long one command may take: removing large trees on a busy file system is slow. */
    static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final ComputerAccess access;

    @Internal
    public WorkdirRemoval(ComputerAccess access) {
        this.access = Objects.requireNonNull(access, "access");
    }

    /**
     * Removes each of {@code paths} on {@code computer}; the outcomes are in the order of the paths. A folder
     * that is not there counts as removed. A computer that cannot be reached fails every folder not yet
     * removed, with the reason.
     */
    public List<Outcome> remove(Computer computer, List<String> paths) {
        Outcome[] outcomes = new Outcome[paths.size()];
        List<Integer> workdirs = new ArrayList<>();
        for (int i = 0; i < outcomes.length; i++) {
            String refusal = refusal(paths.get(i));
            if (refusal == null) {
                workdirs.add(i);
            } else {
                outcomes[i] = new Outcome(paths.get(i), refusal);
            }
        }
        if (!workdirs.isEmpty()) {
            try {
                access.withTransport(computer, transport -> {
                    for (int from = 0; from < workdirs.size(); from += CHUNK) {
                        List<Integer> chunk = workdirs.subList(from, Math.min(from + CHUNK, workdirs.size()));
                        List<String> these = chunk.stream().map(paths::get).toList();
                        CommandResult result = transport.exec(command(these), null, TIMEOUT);
                        Set<String> failed = Set.copyOf(result.stdout().lines().toList());
                        for (int i : chunk) {
                            String path = paths.get(i);
                            outcomes[i] = new Outcome(path, failed.contains(path) ? failure(path, result) : null);
                        }
                    }
                    return null;
                });
            } catch (Exception e) {
                String reason = "computer '" + computer.label() + "' could not be reached: " + e.getMessage();
                for (int i : workdirs) {
                    if (outcomes[i] == null) {
                        outcomes[i] = new Outcome(paths.get(i), reason);
                    }
                }
            }
        }
        return List.of(outcomes);
    }

    /**
     * One command for many folders: a round trip, where removing file by file over SFTP takes one for each
     * file (10 folders of 300 files: about 2 s over SSH to this machine, the more the farther the cluster).
     * It prints each folder it could not remove.
     */
    static String command(List<String> paths) {
        StringBuilder command = new StringBuilder("for p in");
        for (String path : paths) {
            command.append(' ').append(PosixPaths.quote(path));
        }
        return command.append("; do rm -rf -- \"$p\" || printf '%s\\n' \"$p\"; done")
                .toString();
    }

    /** Why rm could not remove {@code path}: what it said of it. */
    private static String failure(String path, CommandResult result) {
        String said = result.stderr()
                .lines()
                .filter(line -> line.contains(path))
                .findFirst()
                .orElse(result.stderr().strip());
        return "rm -rf could not remove it" + (said.isEmpty() ? "" : ": " + said);
    }

    /** Why {@code path} is not a job's working folder as the engine makes them, or null when it is. */
    static String refusal(String path) {
        if (path == null || !path.startsWith("/")) {
            return "'" + path + "' is not an absolute path";
        }
        if (path.chars().anyMatch(c -> c < ' ')) {
            return "'" + path.replaceAll("\\p{Cntrl}", "?") + "' holds a control character";
        }
        String[] names = path.substring(1).split("/", -1);
        for (String name : names) {
            if (name.isEmpty() || name.equals(".") || name.equals("..")) {
                return "'" + path + "' is not a plain path (an empty, '.' or '..' name)";
            }
        }
        try {
            UUID.fromString(names[names.length - 1]);
            return null;
        } catch (IllegalArgumentException e) {
            return "'" + path + "' does not end in a job's uuid, as the working folders Cairn makes do";
        }
    }
}
