package dev.cairn.engine.runtime;

import java.util.Map;

import dev.cairn.engine.scheduler.DirectScheduler;
import dev.cairn.engine.scheduler.PbsScheduler;
import dev.cairn.engine.scheduler.Scheduler;
import dev.cairn.engine.scheduler.SlurmScheduler;
import dev.cairn.engine.transport.Transport;
import dev.cairn.engine.transport.TransportSpec;
import dev.cairn.engine.transport.Transports;
import dev.cairn.storage.graph.Computer;
import dev.cairn.storage.graph.InvalidInputException;

/** The transport and scheduler of a stored computer, by their type names (AiiDA's: core.local, core.slurm, ...). */
public final class ComputerAccess {

    private ComputerAccess() {
    }

    /** Opens a transport to {@code computer}; {@code authParams} are the user's settings (key file, user, ...). */
    public static Transport transport(Computer computer, Map<String, ?> authParams) {
        return Transports.open(TransportSpec.of(computer.transportType(), computer.hostname(), authParams));
    }

    public static Scheduler scheduler(Computer computer) {
        return switch (computer.schedulerType()) {
            case "core.direct", "direct" -> new DirectScheduler();
            case "core.slurm", "slurm" -> new SlurmScheduler();
            case "core.pbspro", "pbspro" -> new PbsScheduler();
            case "core.torque", "torque" -> PbsScheduler.torque();
            default -> throw new InvalidInputException("computer " + computer.label() + " has the scheduler '"
                + computer.schedulerType() + "'; known schedulers: core.direct, core.slurm, core.pbspro, core.torque");
        };
    }

    /** The directory under which the computer's jobs get their work directories. */
    public static String workdir(Computer computer) {
        Object w = computer.metadata().get("workdir");
        if (!(w instanceof String s) || !s.startsWith("/"))
            throw new InvalidInputException("computer " + computer.label() + " has no absolute 'workdir' in its settings");
        return s;
    }
}
