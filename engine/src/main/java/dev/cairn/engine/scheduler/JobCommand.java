package dev.cairn.engine.scheduler;

import java.util.List;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * One command line of a job (AiiDA's {@code CodeInfo}): the program and its arguments, each
 * passed as one word however it is spelt (they are single-quoted in the script, so {@code $}
 * and spaces are literal), whether it runs under the template's MPI launcher ({@code mpi}), and the files its
 * standard streams go to, relative to the working directory (null: the job's own streams).
 */
public record JobCommand(List<String> argv, boolean mpi, String stdinName, String stdoutName, String stderrName) {

    public JobCommand {
        if (argv == null || argv.isEmpty()) {
            throw new InvalidInputException("a job command needs at least the program to run");
        }
        argv = List.copyOf(argv);
        for (String word : argv) {
            if (word.isEmpty() || word.indexOf('\0') >= 0) {
                throw new InvalidInputException("job command " + argv + " has an empty word or a NUL character");
            }
        }
        checkStream("stdin", stdinName, argv);
        checkStream("stdout", stdoutName, argv);
        checkStream("stderr", stderrName, argv);
    }

    /** A serial command with the job's own streams. */
    public static JobCommand of(String... argv) {
        return new JobCommand(List.of(argv), false, null, null, null);
    }

    /** The same command started by the template's MPI launcher ({@code mpirun -np N …}). */
    public JobCommand withMpi() {
        return new JobCommand(argv, true, stdinName, stdoutName, stderrName);
    }

    public JobCommand withStreams(String stdin, String stdout, String stderr) {
        return new JobCommand(argv, mpi, stdin, stdout, stderr);
    }

    private static void checkStream(String stream, String name, List<String> argv) {
        if (name != null && (name.isBlank() || name.indexOf('\n') >= 0 || name.indexOf('\0') >= 0)) {
            throw new InvalidInputException(stream + " file '" + name + "' of job command " + argv
                    + " must be a non-blank file name on one line");
        }
    }
}
