package dev.cairn.engine.internal.calcjob;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

import dev.cairn.engine.scheduler.DirectScheduler;
import dev.cairn.engine.scheduler.PbsScheduler;
import dev.cairn.engine.scheduler.Scheduler;
import dev.cairn.engine.scheduler.SlurmScheduler;
import dev.cairn.engine.transport.Transport;
import dev.cairn.engine.transport.TransportException;
import dev.cairn.engine.transport.TransportPool;
import dev.cairn.engine.transport.TransportSpec;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.computers.Computer;

/**
 * The transport and scheduler of a stored computer, by their type names (AiiDA's:
 * core.local, core.slurm, ...). A computer with {@code max_connections} gets at most that
 * many transports in use at once across every worker on every host: each one in use holds
 * one of its numbered slots, a PostgreSQL advisory lock that ends with the caller's
 * transaction. Transports come from the engine's {@link TransportPool}: SSH connections are
 * kept open between uses, at most one idle per computer per engine, and local commands run on
 * its kept shells; all of it ends when the engine closes.
 */
public final class ComputerAccess {

    /** Advisory-lock keys of connection slots: this prefix, the computer id, the slot number. */
    private static final long SLOT_SPACE = 0x636fL << 48;

    private static final int MAX_SLOTS = 256;
    /** How long a transport waits for a free slot before it counts as failed (and is retried later). */
    static final Duration SLOT_WAIT = Duration.ofMinutes(2);

    private final TransportPool transports;

    public ComputerAccess(TransportPool transports) {
        this.transports = Objects.requireNonNull(transports, "transports");
    }

    /** A functional interface for work done with an open transport. */
    @FunctionalInterface
    public interface TransportWork<T> {
        T run(Transport transport) throws Exception;
    }

    /**
     * Opens a transport to {@code computer} once one of its connection slots is free; the
     * slot is held until {@code c}'s transaction ends, so {@code c} must be in one.
     */
    public Transport open(Connection c, Computer computer, ComputerSettings settings) throws SQLException {
        if (settings.maxConnections() != null) {
            takeSlot(c, computer, Math.min(settings.maxConnections(), MAX_SLOTS));
        }
        return transports.open(
                TransportSpec.of(computer.transportType(), computer.hostname(), settings.transportParams()),
                settings.connectionKeepAlive());
    }

    /** Runs {@code work} with a transport to the computer, in a transaction of its own that holds the slot. */
    public <T> T withTransport(Database database, Computer computer, TransportWork<T> work) throws Exception {
        ComputerSettings settings = ComputerSettings.of(computer);
        try {
            return Transactions.run(database, c -> {
                try (Transport transport = open(c, computer, settings)) {
                    return work.run(transport);
                } catch (SQLException | RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new TransportWorkFailed(e);
                }
            });
        } catch (TransportWorkFailed e) {
            throw (Exception) e.getCause();
        } catch (SQLException e) {
            throw new StorageException("opening a transport to " + computer.label(), e);
        }
    }

    /** Carries a checked failure of transport work out of the transaction that held its slot. */
    private static final class TransportWorkFailed extends RuntimeException {
        TransportWorkFailed(Exception cause) {
            super(cause);
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

    private static void takeSlot(Connection c, Computer computer, int slots) throws SQLException {
        long deadline = System.nanoTime() + SLOT_WAIT.toNanos();
        long pause = 20;
        try (PreparedStatement lock = c.prepareStatement("SELECT pg_try_advisory_xact_lock(?)")) {
            while (true) {
                // start at a random slot, so that waiting workers do not all race for slot 0
                int first = ThreadLocalRandom.current().nextInt(slots);
                for (int i = 0; i < slots; i++) {
                    lock.setLong(1, SLOT_SPACE | (computer.id() << 8) | ((first + i) % slots));
                    try (ResultSet rs = lock.executeQuery()) {
                        rs.next();
                        if (rs.getBoolean(1)) {
                            return;
                        }
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new TransportException(
                            "all " + slots + " connections allowed to " + computer.label()
                                    + " (max_connections) stayed in use for " + SLOT_WAIT.toSeconds() + " s",
                            true,
                            null);
                }
                sleep(ThreadLocalRandom.current().nextLong(pause / 2, pause + 1));
                pause = Math.min(1000, pause * 2);
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException("interrupted while waiting for a connection slot", false, e);
        }
    }
}
