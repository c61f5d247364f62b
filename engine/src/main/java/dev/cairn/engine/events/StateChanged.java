package dev.cairn.engine.events;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import dev.cairn.engine.process.ProcessState;

/**
 * A process moved from one state to another; broadcast once the move has committed, and kept in
 * the table {@code process_event} under {@code eventId}, so a watcher that missed a broadcast
 * reads it there.
 *
 * @param eventId    the move's id in {@code process_event}: ascending in commit order per process
 * @param processId  the process node's id
 * @param uuid       the process node's uuid
 * @param callerId   the id of the process that called it, or null for a top-level process
 * @param entryPoint what ran ("arithmetic.add")
 * @param exitStatus the exit status of a finished process, else null
 * @param time       when the move was written (the database's clock as the step ended); null from a
 *                   sender that does not say
 * @param scheduler  for a waiting calculation job whose job changed its state in the batch system (the
 *                   process stays {@code waiting}), that change; else null
 */
public record StateChanged(
        long eventId,
        long processId,
        UUID uuid,
        Long callerId,
        String entryPoint,
        ProcessState from,
        ProcessState to,
        Integer exitStatus,
        Instant time,
        SchedulerMove scheduler) {

    /**
     * A job's move in its batch system, by the values of {@code scheduler_state}.
     *
     * @param from the state recorded before, or null for the first one recorded
     * @param to   the state now
     */
    public record SchedulerMove(String from, String to) {

        public SchedulerMove {
            Objects.requireNonNull(to, "to");
        }
    }

    public StateChanged {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(entryPoint, "entryPoint");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
    }
}
