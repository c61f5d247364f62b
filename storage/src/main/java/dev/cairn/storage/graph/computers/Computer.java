package dev.cairn.storage.graph.computers;

import java.util.Map;
import java.util.UUID;

/**
 * A machine that runs calculation jobs, as stored.
 *
 * @param metadata settings such as {@code workdir}, {@code shebang}, {@code mpirun_command},
 *                 {@code default_mpiprocs_per_machine}; unmodifiable
 */
public record Computer(
        long id,
        UUID uuid,
        String label,
        String hostname,
        String description,
        String transportType,
        String schedulerType,
        Map<String, Object> metadata) {

    public Computer {
        metadata = Map.copyOf(metadata);
    }
}
