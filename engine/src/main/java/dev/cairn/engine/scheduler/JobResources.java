package dev.cairn.engine.scheduler;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * What a job asks the batch system for (AiiDA's {@code NodeNumberJobResource}): a number of
 * machines, MPI processes on each, and CPUs for each process (threads, {@code --cpus-per-task}).
 * Give the total number of processes instead with {@link #ofTotal}; it must spread evenly, since
 * every scheduler here asks for the same number of processes on each machine.
 */
public record JobResources(int machines, int mpiprocsPerMachine, int cpusPerTask) {

    /** One machine, one process, one CPU: a serial job. */
    public static final JobResources SERIAL = new JobResources(1, 1, 1);

    public JobResources {
        if (machines < 1) {
            throw new InvalidInputException("a job needs at least one machine, not " + machines);
        }
        if (mpiprocsPerMachine < 1) {
            throw new InvalidInputException(
                    "a job needs at least one MPI process per machine, not " + mpiprocsPerMachine);
        }
        if (cpusPerTask < 1) {
            throw new InvalidInputException("a job needs at least one CPU per task, not " + cpusPerTask);
        }
    }

    /** {@code totalMpiprocs} processes spread over {@code machines}, one CPU each. */
    public static JobResources ofTotal(int machines, int totalMpiprocs) {
        if (machines < 1) {
            throw new InvalidInputException("a job needs at least one machine, not " + machines);
        }
        if (totalMpiprocs < 1 || totalMpiprocs % machines != 0) {
            throw new InvalidInputException("a total of " + totalMpiprocs
                    + " MPI processes cannot be spread evenly over " + machines + " machines");
        }
        return new JobResources(machines, totalMpiprocs / machines, 1);
    }

    public JobResources withCpusPerTask(int cpus) {
        return new JobResources(machines, mpiprocsPerMachine, cpus);
    }

    public int totalMpiprocs() {
        return Math.multiplyExact(machines, mpiprocsPerMachine);
    }

    /** CPUs a machine gives the job: its processes times their threads (PBS's {@code ncpus}). */
    public int cpusPerMachine() {
        return Math.multiplyExact(mpiprocsPerMachine, cpusPerTask);
    }
}
