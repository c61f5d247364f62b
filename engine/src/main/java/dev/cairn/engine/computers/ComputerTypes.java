package dev.cairn.engine.computers;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.cairn.engine.internal.calcjob.ComputerSettings;
import dev.cairn.engine.transport.TransportSpec;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerSpec;

/**
 * What a computer may be: the transport and scheduler types the engine has, and the settings
 * (the computer's metadata) it reads. {@link #check} refuses a computer the engine could not run
 * a job on, before it is stored, with a message naming what is wrong and what would do.
 */
public final class ComputerTypes {

    /** The transport types, by AiiDA's names; {@code local} and {@code ssh} are taken as well. */
    public static final List<String> TRANSPORTS = List.of("core.local", "core.ssh");

    /** The scheduler types, by AiiDA's names; {@code direct}, {@code slurm}, ... are taken as well. */
    public static final List<String> SCHEDULERS = List.of("core.direct", "core.pbspro", "core.slurm", "core.torque");

    /** The settings a computer's metadata may hold ({@code docs/tutorials/running-on-a-cluster.md}). */
    public static final Set<String> SETTINGS = new TreeSet<>(ComputerSettings.NAMES);

    private ComputerTypes() {}

    /**
     * Checks a computer before it is stored: known transport and scheduler types, no unknown
     * setting, an absolute {@code workdir}, settings of the right kinds, and transport parameters
     * the transport takes (for ssh a {@code key_filename}, since no password is stored).
     *
     * @throws InvalidInputException naming the first thing that is wrong
     */
    public static void check(ComputerSpec spec) {
        requireKnown("transport", spec.transportType(), TRANSPORTS);
        requireKnown("scheduler", spec.schedulerType(), SCHEDULERS);
        Set<String> unknown = new TreeSet<>(spec.metadata().keySet());
        unknown.removeAll(SETTINGS);
        if (!unknown.isEmpty()) {
            throw new InvalidInputException("unknown computer setting" + (unknown.size() == 1 ? " " : "s ")
                    + String.join(", ", unknown) + "; the settings are " + String.join(", ", SETTINGS));
        }
        Computer computer = new Computer(
                0,
                null,
                spec.label(),
                spec.hostname(),
                spec.description(),
                spec.transportType(),
                spec.schedulerType(),
                spec.metadata());
        ComputerSettings settings = ComputerSettings.of(computer);
        TransportSpec.of(spec.transportType(), spec.hostname(), settings.transportParams());
    }

    /** The type's name as AiiDA writes it: {@code slurm} is {@code core.slurm}. */
    static String canonical(String type) {
        return type.startsWith("core.") ? type : "core." + type;
    }

    private static void requireKnown(String what, String type, List<String> known) {
        if (!known.contains(canonical(type))) {
            throw new InvalidInputException(
                    "unknown " + what + " type '" + type + "'; the " + what + " types are " + String.join(", ", known));
        }
    }
}
