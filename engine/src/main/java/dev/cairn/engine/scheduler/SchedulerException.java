package dev.cairn.engine.scheduler;

import dev.cairn.storage.errors.UnavailableException;

/**
 * The batch system refused or failed a command (sbatch, squeue, qstat, kill …), or printed
 * something this scheduler cannot read. The message names the command, its exit code and what
 * it printed on stderr. Failures to reach the computer at all are {@code TransportException}s
 * and pass through unchanged.
 */
public final class SchedulerException extends UnavailableException {

    public SchedulerException(String message) {
        super(message);
    }
}
