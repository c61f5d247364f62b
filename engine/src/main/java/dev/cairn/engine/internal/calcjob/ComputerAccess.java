package dev.cairn.engine.internal.calcjob;

import java.time.Duration;
import java.util.Objects;

import dev.cairn.engine.scheduler.DirectScheduler;
import dev.cairn.engine.scheduler.PbsScheduler;
import dev.cairn.engine.scheduler.Scheduler;
import dev.cairn.engine.scheduler.SlurmScheduler;
import dev.cairn.engine.transport.ConnectionPermit;
import dev.cairn.engine.transport.Transport;
import dev.cairn.engine.transport.TransportPool;
import dev.cairn.engine.transport.TransportSpec;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.computers.Computer;

/**
 * The transport and scheduler of a stored computer, by their type names (AiiDA's:
 * core.local, core.slurm, ...). A computer with {@code max_connections} has at most that many
 * transports open at once across every worker on every host, in use or kept idle: each holds
 * one of its numbered slots ({@link ConnectionSlots}) until it closes. Transports come from the
 * engine's {@link TransportPool}: SSH connections are kept open between uses, at most one idle
 * per computer per engine, and local commands run on its kept shells; all of it ends when the
 * engine closes.
 */
public final class ComputerAccess {

    private static final int MAX_SLOTS = 256;
    /** How long a transport waits for a free slot before it counts as failed (and is retried later). */
    static final Duration SLOT_WAIT = Duration.ofMinutes(2);

    private final TransportPool transports;
    private final ConnectionSlots slots;

    public ComputerAccess(TransportPool transports, Database database) {
        this.transports = Objects.requireNonNull(transports, "transports");
        this.slots = new ConnectionSlots(database);
    }

    /** A functional interface for work done with an open transport. */
    @FunctionalInterface
    public interface TransportWork<T> {
        T run(Transport transport) throws Exception;
    }

    /** Opens a transport to {@code computer}, once one of its connection slots is free if it has a limit. */
    public Transport open(Computer computer, ComputerSettings settings) {
        Integer limit = settings.maxConnections();
        return transports.open(
                TransportSpec.of(computer.transportType(), computer.hostname(), settings.transportParams()),
                settings.connectionKeepAlive(),
                limit == null ? null : computer.id(),
                limit == null
                        ? () -> ConnectionPermit.NONE
                        : () -> slots.take(computer.id(), computer.label(), Math.min(limit, MAX_SLOTS), SLOT_WAIT));
    }

    /** Runs {@code work} with a transport to the computer, closed after it. */
    public <T> T withTransport(Computer computer, TransportWork<T> work) throws Exception {
        try (Transport transport = open(computer, ComputerSettings.of(computer))) {
            return work.run(transport);
        }
    }

    /** The computer's scheduler; schedulers keep nothing, so each call makes a new one. */
    public static Scheduler scheduler(Computer computer) {
        return switch (computer.schedulerType()) {
            case "core.direct", "direct" -> new DirectScheduler();
            case "core.slurm", "slurm" -> new SlurmScheduler();
            case "core.pbspro", "pbspro" -> new PbsScheduler();
            case "core.torque", "torque" -> PbsScheduler.torque();
            default ->
                throw new InvalidInputException(
                        "computer " + computer.label() + " has the scheduler '" + computer.schedulerType()
                                + "'; known schedulers: core.direct, core.slurm, core.pbspro, core.torque");
        };
    }
}
